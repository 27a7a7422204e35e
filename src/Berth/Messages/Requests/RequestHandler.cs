using Berth.Connections;

namespace Berth.Messages.Requests;

/// <summary>
/// Answers one request synchronously, on the connection's receive loop; throw <see cref="RequestRejectedException"/> to
/// send an error reply instead.
/// </summary>
public delegate TReply RequestHandler<TRequest, TReply>(Connection connection, in TRequest request)
    where TRequest : IMessage<TRequest>
    where TReply : IMessage<TReply>;

/// <summary>
/// Answers one request when its <see cref="ValueTask{TResult}"/> completes, while the connection goes on receiving; a
/// <see cref="RequestRejectedException"/> from it becomes an error reply.
/// </summary>
public delegate ValueTask<TReply> AsyncRequestHandler<TRequest, TReply>(Connection connection, TRequest request)
    where TRequest : IMessage<TRequest>
    where TReply : IMessage<TReply>;
