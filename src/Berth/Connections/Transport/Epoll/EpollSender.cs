using System.Net.Sockets;
using System.Runtime.InteropServices;
using Berth.Threading;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// The send side of an <see cref="EpollTransport"/>: writes a batch with one gather <c>sendmsg</c> (the iovec array
/// on the stack, each array pinned only for the call) and, when the socket buffer fills, leaves the rest with the event
/// loop, which writes it once the socket is writable and then completes the send on its own thread. Before the first
/// send of a client socket it also waits, once, for the connect under way (<see cref="ConnectedAsync"/>).
/// </summary>
internal sealed unsafe class EpollSender(int fd) : ReusableAwaitable<int>
{
    /// <summary>Buffers gathered per call (the iovec array is on the stack); the transport's batch cap.</summary>
    public const int MaxVectors = 16;

    private ReadinessHandoff _handoff;
    private IList<ArraySegment<byte>>? _buffers;
    private int _next;
    private int _offset;
    private int _total;
    private volatile bool _aborted;
    private Socket? _connecting;

    public ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers)
    {
        _buffers = buffers;
        _next = 0;
        _offset = 0;
        _total = 0;
        Reset();
        if (!TrySend(out var error))
        {
            return Pending;
        }

        _buffers = null;
        return error is null ? new ValueTask<int>(_total) : ValueTask.FromException<int>(error);
    }

    /// <summary>
    /// Waits until the non-blocking connect under way on <paramref name="socket"/> has finished: the socket turns writable
    /// once connected, and an error or hang-up event ends a failed connect. Fails with the connect's error, or with
    /// <see cref="SocketError.OperationAborted"/> after <see cref="Abort"/>; its continuation runs on the thread pool, so
    /// the caller's code never runs on the loop.
    /// </summary>
    public ValueTask<int> ConnectedAsync(Socket socket)
    {
        _connecting = socket;
        Reset();
        RunContinuationsAsynchronously = true;
        if (!TryFinishConnect(out var error))
        {
            return Pending;
        }

        _connecting = null;
        RunContinuationsAsynchronously = false;
        return error is null ? new ValueTask<int>(0) : ValueTask.FromException<int>(error);
    }

    /// <summary>Fails this send, if one waits, and every later one.</summary>
    public void Abort() => _aborted = true;

    /// <summary>
    /// Aborts and ends a <see cref="ConnectedAsync"/> still waiting, off the loop; the handoff lets exactly one of this
    /// call and the loop's next event finish it.
    /// </summary>
    public void AbortConnect()
    {
        Abort();
        OnWritable();
    }

    /// <summary>On the loop, for an event that may make the socket writable.</summary>
    public void OnWritable()
    {
        if (!_handoff.Signal())
        {
            return;
        }

        if (_connecting is not null)
        {
            FinishConnect();
            return;
        }

        if (!TrySend(out var error))
        {
            return;
        }

        _buffers = null;
        if (error is null)
        {
            SetResult(_total);
        }
        else
        {
            SetException(error);
        }
    }

    private void FinishConnect()
    {
        if (!TryFinishConnect(out var error))
        {
            return;
        }

        _connecting = null;
        if (error is null)
        {
            SetResult(0);
        }
        else
        {
            SetException(error);
        }

        RunContinuationsAsynchronously = false;
    }

    /// <summary>False when the connect is still under way and now waits for the loop.</summary>
    private bool TryFinishConnect(out Exception? error)
    {
        var socket = _connecting!;
        while (true)
        {
            if (_aborted)
            {
                error = new SocketException((int)SocketError.OperationAborted);
                return true;
            }

            var observed = _handoff.Observe();

            // Writable first, the error second: a failed connect polls writable too, and its error is set before.
            var poll = new LinuxSockets.PollDescriptor { Descriptor = fd, Events = LinuxSockets.Writable };
            var writable = LinuxSockets.Poll(&poll, 1, 0) > 0 && (poll.ReturnedEvents & LinuxSockets.Writable) != 0;
            var code = (int)socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)!;
            if (code != 0)
            {
                error = new SocketException(code);
                return true;
            }

            if (writable)
            {
                error = null;
                return true;
            }

            if (_handoff.TryWait(observed))
            {
                error = null;
                return false;
            }
        }
    }

    /// <summary>False when the rest of the batch now waits for the loop.</summary>
    private bool TrySend(out Exception? error)
    {
        var buffers = _buffers!;
        var vectors = stackalloc LinuxSockets.IoVector[MaxVectors];
        while (true)
        {
            if (_aborted)
            {
                error = new SocketException((int)SocketError.OperationAborted);
                return true;
            }

            SkipWritten(buffers);
            if (_next == buffers.Count)
            {
                error = null;
                return true;
            }

            var observed = _handoff.Observe();
            var written = Gather(buffers, vectors, 0, Math.Min(MaxVectors, buffers.Count - _next));
            if (written >= 0)
            {
                Advance(buffers, (int)written);
                continue;
            }

            var errno = Marshal.GetLastPInvokeError();
            if (errno == LinuxSockets.Interrupted)
            {
                continue;
            }

            if (errno != LinuxSockets.WouldBlock)
            {
                error = new SocketException();
                return true;
            }

            if (_handoff.TryWait(observed))
            {
                error = null;
                return false;
            }
        }
    }

    /// <summary>Pins one array per frame of recursion (a <c>fixed</c> each), so any number of arrays stays pinned for the one call.</summary>
    private nint Gather(IList<ArraySegment<byte>> buffers, LinuxSockets.IoVector* vectors, int index, int count)
    {
        if (index == count)
        {
            var message = default(LinuxSockets.MessageHeader);
            message.Vectors = vectors;
            message.VectorCount = (nuint)count;
            return LinuxSockets.SendMessage(fd, &message, LinuxSockets.DontWait | LinuxSockets.NoSignal);
        }

        var segment = buffers[_next + index];
        var skip = index == 0 ? _offset : 0;
        fixed (byte* array = segment.Array)
        {
            vectors[index].Base = array + segment.Offset + skip;
            vectors[index].Length = (nuint)(segment.Count - skip);
            return Gather(buffers, vectors, index + 1, count);
        }
    }

    private void Advance(IList<ArraySegment<byte>> buffers, int written)
    {
        _total += written;
        while (written > 0)
        {
            var left = buffers[_next].Count - _offset;
            if (written < left)
            {
                _offset += written;
                return;
            }

            written -= left;
            _next++;
            _offset = 0;
        }
    }

    private void SkipWritten(IList<ArraySegment<byte>> buffers)
    {
        while (_next < buffers.Count && buffers[_next].Count == _offset)
        {
            _next++;
            _offset = 0;
        }
    }
}
