using Berth.Connections;

namespace Berth.Messages.Requests;

/// <summary>
/// Request/response on a <see cref="Connection"/> whose handler is a <see cref="Connections.Packets.PacketRouter"/> (it
/// takes the replies): the request goes out in a <see cref="RequestEnvelope"/> with the next correlation id, and the
/// returned task completes with the reply, in whatever order replies arrive. Each failure has its own answer, always
/// through the task: <see cref="TimeoutException"/> after the timeout, <see cref="OperationCanceledException"/> on
/// cancellation (local only: the peer is not told and its reply, if it comes, is discarded and counted),
/// <see cref="RequestRejectedException"/> for the peer's error reply, <see cref="ConnectionClosedException"/> when the
/// connection ends first, <see cref="RequestLimitReachedException"/> at <see cref="RequestOptions.MaxOutstanding"/>,
/// <see cref="SendQueueFullException"/> when the send queue is full (a request never waits for room), and
/// <see cref="MessageFormatException"/> for a reply that is not a <c>TReply</c> (which also closes the connection).
/// The code after the await runs on the thread that completed it, for a reply (and, on an event loop, a timeout) the
/// connection's receive loop, so it must not block.
/// </summary>
public static class MessageRequests
{
    /// <summary>Sends <paramref name="request"/> and awaits its reply, within <see cref="RequestOptions.Timeout"/>.</summary>
    public static ValueTask<TReply> RequestAsync<TRequest, TReply>(this Connection connection, in TRequest request, CancellationToken cancellationToken = default)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ArgumentNullException.ThrowIfNull(connection);
        return RequestAsync<TRequest, TReply>(connection, request, connection.Options.Requests.Timeout, cancellationToken);
    }

    /// <summary>Sends <paramref name="request"/> and awaits its reply, within <paramref name="timeout"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is neither positive nor <see cref="Timeout.InfiniteTimeSpan"/>.</exception>
    public static ValueTask<TReply> RequestAsync<TRequest, TReply>(this Connection connection, in TRequest request, TimeSpan timeout, CancellationToken cancellationToken)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ArgumentNullException.ThrowIfNull(connection);
        if (timeout != Timeout.InfiniteTimeSpan)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<TReply>(cancellationToken);
        }

        var requests = connection.Requests;
        var pending = PendingReply<TReply>.Rent();
        var deadline = timeout == Timeout.InfiniteTimeSpan ? long.MaxValue : Environment.TickCount64 + (long)Math.Ceiling(timeout.TotalMilliseconds);
        if (requests.TryAdd(pending, deadline) is { } refusal)
        {
            pending.Discard();
            return ValueTask.FromException<TReply>(refusal);
        }

        var reply = pending.Reply;
        var correlation = pending.Correlation;
        pending.WatchCancellation(cancellationToken);
        Exception? unsent;
        try
        {
            unsent = connection.TrySend((correlation, request), EnvelopeFrames<TRequest>.Request)
                ? null
                : connection.IsConnected ? new SendQueueFullException() : new ConnectionClosedException();
        }
        catch (Exception e)
        {
            unsent = e;
        }

        if (unsent is not null && requests.TryRemove(correlation) == pending)
        {
            pending.Fail(unsent);
        }

        return reply;
    }
}
