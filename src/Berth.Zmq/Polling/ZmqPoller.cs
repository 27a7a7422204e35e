using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// Waits on several sockets at once with <c>zmq_poll</c>. The poll items live in one pinned array reused by every
/// <see cref="Poll"/>, so polling allocates nothing. Use it from the thread that owns the sockets.
/// </summary>
public sealed unsafe class ZmqPoller
{
    private readonly List<ZmqSocket> _sockets = [];
    private ZmqPollItem[] _items = GC.AllocateArray<ZmqPollItem>(4, pinned: true);

    /// <summary>The number of sockets added.</summary>
    public int Count => _sockets.Count;

    /// <summary>Adds a socket and the events to wait for.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="events">Usually <see cref="ZmqPollEvents.In"/>, <see cref="ZmqPollEvents.Out"/> or both.</param>
    /// <returns>The socket's index, for <see cref="ReadyEvents"/>.</returns>
    public int Add(ZmqSocket socket, ZmqPollEvents events)
    {
        ArgumentNullException.ThrowIfNull(socket);
        if (_sockets.Count == _items.Length)
        {
            var grown = GC.AllocateArray<ZmqPollItem>(_items.Length * 2, pinned: true);
            _items.CopyTo(grown, 0);
            _items = grown;
        }

        _items[_sockets.Count] = new ZmqPollItem { Events = (short)events };
        _sockets.Add(socket);
        return _sockets.Count - 1;
    }

    /// <summary>Waits until at least one socket is ready or the timeout elapses.</summary>
    /// <param name="timeout">How long to wait; <see cref="Timeout.InfiniteTimeSpan"/> waits forever, zero checks and returns.</param>
    /// <returns>How many sockets are ready (0 on timeout).</returns>
    public int Poll(TimeSpan timeout)
    {
        var milliseconds = timeout == Timeout.InfiniteTimeSpan ? -1 : (long)timeout.TotalMilliseconds;
        ArgumentOutOfRangeException.ThrowIfLessThan(milliseconds, -1, nameof(timeout));
        var claimed = 0;
        try
        {
            for (; claimed < _sockets.Count; claimed++)
            {
                _items[claimed].Socket = _sockets[claimed].EnterForPoll();
                _items[claimed].ReadyEvents = 0;
            }

            fixed (ZmqPollItem* items = _items)
            {
                int ready;
                while ((ready = LibZmq.Poll(items, _sockets.Count, (nint)milliseconds)) < 0)
                {
                    var error = LibZmq.Errno();
                    if (error != ZmqErrors.Interrupted)
                    {
                        throw new ZmqException(error, $"zmq_poll: {ZmqException.Describe(error)}");
                    }
                }

                return ready;
            }
        }
        finally
        {
            for (var i = 0; i < claimed; i++)
            {
                _sockets[i].ExitAfterPoll();
            }
        }
    }

    /// <summary>The events found ready on the socket at <paramref name="index"/> by the last <see cref="Poll"/>.</summary>
    /// <param name="index">The index returned by <see cref="Add"/>.</param>
    /// <returns>The ready events.</returns>
    public ZmqPollEvents ReadyEvents(int index) => (ZmqPollEvents)_items[index].ReadyEvents;
}
