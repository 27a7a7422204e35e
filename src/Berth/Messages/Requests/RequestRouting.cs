using System.Buffers;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;

namespace Berth.Messages.Requests;

/// <summary>
/// Request handlers in a <see cref="PacketRouter"/>, beside its message and raw handlers. Requests of one connection
/// are delivered in the order they arrived, one at a time, on its receive loop: a synchronous handler's replies leave in
/// that order; an asynchronous handler that does not finish at once lets the next requests through, so its reply may
/// pass theirs (the caller matches them by correlation id). Up to <see cref="RequestOptions.MaxInFlightHandlers"/>
/// asynchronous handlers run per connection; at the bound its receive pauses until one finishes, and the other
/// connections of its event loop go on. A body the contract rejects closes only that connection with
/// <see cref="DisconnectReason.MalformedMessage"/>; a handler exception other than <see cref="RequestRejectedException"/>
/// closes it with <see cref="DisconnectReason.HandlerFailed"/>.
/// </summary>
public static class RequestRouting
{
    /// <summary>Answers requests of type <typeparamref name="TRequest"/> with <paramref name="handler"/>'s reply.</summary>
    /// <exception cref="ArgumentException">A request handler is already mapped to <typeparamref name="TRequest"/>'s id.</exception>
    public static PacketRouter OnRequest<TRequest, TReply>(this PacketRouter router, RequestHandler<TRequest, TReply> handler)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ArgumentNullException.ThrowIfNull(router);
        ArgumentNullException.ThrowIfNull(handler);
        router.Requests.Add(TRequest.MessageId, (Connection connection, long correlation, in ReadOnlySequence<byte> body) =>
        {
            if (TryDecode(connection, body, out TRequest request))
            {
                Answer(connection, correlation, request, handler);
            }
        });
        return router;
    }

    /// <summary>
    /// Answers requests of type <typeparamref name="TRequest"/> with the reply <paramref name="handler"/>'s value task
    /// completes with, while the connection goes on receiving.
    /// </summary>
    /// <exception cref="ArgumentException">A request handler is already mapped to <typeparamref name="TRequest"/>'s id.</exception>
    public static PacketRouter OnRequestAsync<TRequest, TReply>(this PacketRouter router, AsyncRequestHandler<TRequest, TReply> handler)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ArgumentNullException.ThrowIfNull(router);
        ArgumentNullException.ThrowIfNull(handler);
        router.Requests.Add(TRequest.MessageId, (Connection connection, long correlation, in ReadOnlySequence<byte> body) =>
        {
            if (TryDecode(connection, body, out TRequest request))
            {
                AnswerLater(connection, correlation, request, handler);
            }
        });
        return router;
    }

    private static void Answer<TRequest, TReply>(Connection connection, long correlation, in TRequest request, RequestHandler<TRequest, TReply> handler)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        TReply reply;
        try
        {
            reply = handler(connection, request);
        }
        catch (RequestRejectedException e)
        {
            Replies.SendError(connection, correlation, e);
            return;
        }

        Replies.Send(connection, correlation, reply);
    }

    private static void AnswerLater<TRequest, TReply>(Connection connection, long correlation, TRequest request, AsyncRequestHandler<TRequest, TReply> handler)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ValueTask<TReply> pending;
        try
        {
            pending = handler(connection, request);
        }
        catch (RequestRejectedException e)
        {
            Replies.SendError(connection, correlation, e);
            return;
        }

        if (pending.IsCompletedSuccessfully)
        {
            Replies.Send(connection, correlation, pending.Result);
            return;
        }

        HandlerCompletion<TReply>.Await(connection, correlation, pending);
    }

    private static bool TryDecode<TRequest>(Connection connection, in ReadOnlySequence<byte> body, out TRequest request)
        where TRequest : IMessage<TRequest>
    {
        try
        {
            var reader = new PacketReader(body, TRequest.ByteOrder);
            request = TRequest.Read(ref reader);
            return true;
        }
        catch (MessageFormatException e)
        {
            connection.Lifetime.CloseForMalformedMessage(e);
            request = default!;
            return false;
        }
    }
}
