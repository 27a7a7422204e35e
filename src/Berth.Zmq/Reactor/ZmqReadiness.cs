using Berth.Threading;

namespace Berth.Zmq;

/// <summary>
/// The reusable awaitable of one socket's async operations. An operation arms it, retries the libzmq call, and only
/// then awaits: because the descriptor is edge-triggered, an edge that lands between the retry and the await must
/// still complete the wait, so arming comes first. Allocates nothing per wait.
/// </summary>
internal sealed class ZmqReadiness : ReusableAwaitable<bool>
{
    private readonly Lock _sync = new();
    private readonly IReadinessReactor _reactor;
    private readonly nint _fd;
    private readonly ulong _id;
    private volatile bool _inline;
    private bool _armed;
    private bool _detached;

    /// <summary>1 while an edge waits to be delivered by whichever thread next holds the lock.</summary>
    private int _signalled;

    public ZmqReadiness(IReadinessReactor reactor, nint fd, bool inline)
    {
        _reactor = reactor;
        _fd = fd;
        _inline = inline;
        RunContinuationsAsynchronously = true;
        _id = reactor.Add(fd, this);
    }

    /// <summary>Prepares a wait; returns the token for the <see cref="ValueTask"/> built over this source.</summary>
    public short Arm()
    {
        short version;
        lock (_sync)
        {
            ObjectDisposedException.ThrowIf(_detached, typeof(ZmqSocket));
            Reset();
            _armed = true;
            version = Version;
        }

        DeliverSignal();
        _reactor.Watch(_id);
        return version;
    }

    /// <summary>
    /// The descriptor fired: wake the armed wait, if any. Never blocks the reactor: when another thread holds the lock
    /// (a continuation still running inline under it, or a wait being armed) the edge is left for that thread to
    /// deliver as it lets go.
    /// </summary>
    public void Signal()
    {
        Volatile.Write(ref _signalled, 1);
        DeliverSignal();
    }

    /// <summary>
    /// From now on the socket's continuations run on the thread pool: one of them held the reactor thread. Called by
    /// the <see cref="ReactorWatchdog"/> while that continuation still runs (holding the lock), so it takes none.
    /// </summary>
    public void CompleteOnThreadPool() => _inline = false;

    /// <summary>Ends the armed wait with <paramref name="error"/> (cancellation or disposal), on the thread pool.</summary>
    public void Fail(Exception error)
    {
        lock (_sync)
        {
            Complete(error);
        }

        DeliverSignal();
    }

    /// <summary>Stops watching the descriptor and fails any pending wait; called before the socket closes.</summary>
    public void Detach()
    {
        lock (_sync)
        {
            if (_detached)
            {
                return;
            }

            _detached = true;
            _reactor.Remove(_fd, _id);
        }

        Fail(new ObjectDisposedException(nameof(ZmqSocket)));
    }

    /// <summary>
    /// Delivers a pending edge if the lock is free. Whoever sets the flag tries after setting it and every holder tries
    /// after letting go, so an edge is never stranded; and the reactor never waits for a lock it does not get.
    /// </summary>
    private void DeliverSignal()
    {
        while (Volatile.Read(ref _signalled) != 0 && _sync.TryEnter())
        {
            try
            {
                if (Interlocked.Exchange(ref _signalled, 0) != 0)
                {
                    Complete(null);
                }
            }
            finally
            {
                _sync.Exit();
            }
        }
    }

    /// <summary>Called holding the lock.</summary>
    private void Complete(Exception? error)
    {
        if (!_armed)
        {
            return;
        }

        // Completing under the lock keeps a late edge from completing the next wait that Arm has just reset. An
        // inline continuation therefore runs holding it (Lock is reentrant, so it may arm the next wait itself).
        // Cancellation and disposal always go to the thread pool: no caller code runs inside Cancel or Dispose.
        _armed = false;
        RunContinuationsAsynchronously = error is not null || !_inline;
        if (error is null)
        {
            SetResult(true);
        }
        else
        {
            SetException(error);
        }
    }
}
