namespace Berth.Zmq;

/// <summary>
/// One request awaiting its reply in a <see cref="ZmqRequester"/>. Whoever removes it from the requester's table (the
/// reply, the timeout sweep, the cancellation, the disposal) completes it, so it completes once.
/// </summary>
internal abstract class ZmqPendingRequest
{
    private CancellationTokenRegistration _cancellation;

    public long Correlation { get; set; }

    /// <summary>When it times out, in <see cref="Environment.TickCount64"/> milliseconds; <see cref="long.MaxValue"/> for never.</summary>
    public long Deadline { get; set; }

    public ZmqRequester? Owner { get; set; }

    public void WatchCancellation(CancellationToken token)
    {
        if (token.CanBeCanceled)
        {
            _cancellation = token.UnsafeRegister(static (state, token) => ((ZmqPendingRequest)state!).Cancel(token), this);
        }
    }

    /// <summary>
    /// Completes with the reply read from <paramref name="body"/>; when it is not the awaited reply, counts it dropped
    /// on <paramref name="socket"/> first, so the caller who sees the failure sees the count.
    /// </summary>
    public abstract void Complete(int messageId, ReadOnlySpan<byte> body, ZmqSocket socket);

    public abstract void Fail(Exception error);

    protected void StopWatchingCancellation()
    {
        _cancellation.Dispose();
        _cancellation = default;
    }

    protected void Forget()
    {
        Owner = null;
        Correlation = 0;
    }

    private void Cancel(CancellationToken token)
    {
        if (Owner?.TryRemove(Correlation) == this)
        {
            Fail(new OperationCanceledException(token));
        }
    }
}
