using System.Runtime.CompilerServices;
using Berth.Messages;
using Berth.Messages.Requests;

namespace Berth.Zmq;

/// <summary>One request contract's handler in a <see cref="ZmqResponder"/>: reads the body, runs the handler, sends its answer.</summary>
internal abstract class ZmqRequestRoute
{
    /// <summary>Answers the request in <paramref name="body"/>; the task completes once the answer is sent.</summary>
    public abstract ValueTask Handle(ZmqResponder responder, long correlation, ReadOnlySpan<byte> body);
}

internal sealed class ZmqSyncRequestRoute<TRequest, TReply>(ZmqRequestHandler<TRequest, TReply> handler) : ZmqRequestRoute
    where TRequest : IMessage<TRequest>
    where TReply : IMessage<TReply>
{
    public override ValueTask Handle(ZmqResponder responder, long correlation, ReadOnlySpan<byte> body)
    {
        if (!MessageReading.TryRead<TRequest>(body, out var request, out _))
        {
            responder.CountDropped();
            return default;
        }

        TReply reply;
        try
        {
            reply = handler(in request);
        }
        catch (RequestRejectedException rejection)
        {
            responder.SendError(correlation, rejection);
            return default;
        }

        responder.SendReply(correlation, reply);
        return default;
    }
}

internal sealed class ZmqAsyncRequestRoute<TRequest, TReply>(ZmqAsyncRequestHandler<TRequest, TReply> handler) : ZmqRequestRoute
    where TRequest : IMessage<TRequest>
    where TReply : IMessage<TReply>
{
    public override ValueTask Handle(ZmqResponder responder, long correlation, ReadOnlySpan<byte> body)
    {
        if (!MessageReading.TryRead<TRequest>(body, out var request, out _))
        {
            responder.CountDropped();
            return default;
        }

        ValueTask<TReply> pending;
        try
        {
            pending = handler(request);
        }
        catch (RequestRejectedException rejection)
        {
            responder.SendError(correlation, rejection);
            return default;
        }

        if (pending.IsCompletedSuccessfully)
        {
            responder.SendReply(correlation, pending.Result);
            return default;
        }

        return ReplyWhenDoneAsync(responder, correlation, pending);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private static async ValueTask ReplyWhenDoneAsync(ZmqResponder responder, long correlation, ValueTask<TReply> pending)
    {
        TReply reply;
        try
        {
            reply = await pending.ConfigureAwait(false);
        }
        catch (RequestRejectedException rejection)
        {
            responder.SendError(correlation, rejection);
            return;
        }

        responder.SendReply(correlation, reply);
    }
}
