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
    private readonly bool _inline;
    private bool _armed;
    private bool _detached;

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

        _reactor.Watch(_id);
        return version;
    }

    /// <summary>The descriptor fired: wake the armed wait, if any.</summary>
    public void Signal() => Complete(null);

    /// <summary>Ends the armed wait with <paramref name="error"/> (cancellation or disposal).</summary>
    public void Fail(Exception error) => Complete(error);

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

    private void Complete(Exception? error)
    {
        lock (_sync)
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
}
