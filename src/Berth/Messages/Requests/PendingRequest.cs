using System.Buffers;

namespace Berth.Messages.Requests;

/// <summary>
/// One request awaiting its reply, in its connection's <see cref="PendingRequests"/>. Whoever removes it from there
/// (the reply, the timeout sweep, the cancellation, the close) is the one that completes it, so it completes once.
/// </summary>
internal abstract class PendingRequest
{
    private CancellationTokenRegistration _cancellation;

    /// <summary>The request's id on its connection, given when it is added.</summary>
    public long Correlation { get; set; }

    /// <summary>When it times out, in <see cref="Environment.TickCount64"/> milliseconds; <see cref="long.MaxValue"/> for never.</summary>
    public long Deadline { get; set; }

    public PendingRequests? Table { get; set; }

    /// <summary>Fails the request with <see cref="OperationCanceledException"/> when <paramref name="token"/> is cancelled first.</summary>
    public void WatchCancellation(CancellationToken token)
    {
        if (token.CanBeCanceled)
        {
            _cancellation = token.UnsafeRegister(static (state, token) => ((PendingRequest)state!).Cancel(token), this);
        }
    }

    /// <summary>Completes with the reply decoded from <paramref name="body"/>, or throws when the body is not the awaited reply.</summary>
    /// <exception cref="MessageFormatException">The reply's message id or body is not what the request awaits; the request failed with it.</exception>
    public abstract void Complete(int messageId, in ReadOnlySequence<byte> body);

    public abstract void Fail(Exception error);

    /// <summary>Fails the request as past its deadline, with the same exception whichever clock found it.</summary>
    public void FailTimedOut() => Fail(new TimeoutException($"No reply to request {Correlation} before its timeout."));

    /// <summary>
    /// Ends the cancellation watch before completing. Waits for a cancellation callback running on another thread, so the
    /// instance is not reused under it; from inside the callback itself it does not wait.
    /// </summary>
    protected void StopWatchingCancellation()
    {
        _cancellation.Dispose();
        _cancellation = default;
    }

    /// <summary>Clears what tied the instance to its last request, before it goes back to the pool.</summary>
    protected void Forget()
    {
        Table = null;
        Correlation = 0;
        _cancellation = default;
    }

    private void Cancel(CancellationToken token)
    {
        if (Table?.TryRemove(Correlation) == this)
        {
            Fail(new OperationCanceledException(token));
        }
    }
}
