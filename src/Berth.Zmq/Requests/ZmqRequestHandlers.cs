using Berth.Messages;

namespace Berth.Zmq;

/// <summary>
/// Answers one request on a <see cref="ZmqResponder"/> before the next is read; a
/// <see cref="Berth.Messages.Requests.RequestRejectedException"/> from it becomes an error reply.
/// </summary>
/// <param name="request">The request, read from its frame.</param>
/// <returns>The reply, sent back to the requesting peer.</returns>
public delegate TReply ZmqRequestHandler<TRequest, TReply>(in TRequest request)
    where TRequest : IMessage<TRequest>
    where TReply : IMessage<TReply>;

/// <summary>
/// Answers one request on a <see cref="ZmqResponder"/> when its <see cref="ValueTask{TResult}"/> completes; the next
/// request is read after that. A <see cref="Berth.Messages.Requests.RequestRejectedException"/> from it becomes an error reply.
/// </summary>
/// <param name="request">The request.</param>
/// <returns>The reply, sent back to the requesting peer.</returns>
public delegate ValueTask<TReply> ZmqAsyncRequestHandler<TRequest, TReply>(TRequest request)
    where TRequest : IMessage<TRequest>
    where TReply : IMessage<TReply>;
