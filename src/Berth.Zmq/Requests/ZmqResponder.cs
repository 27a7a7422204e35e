using System.Buffers;
using Berth.Messages;
using Berth.Messages.Requests;

namespace Berth.Zmq;

/// <summary>
/// The answering side of <see cref="ZmqRequester"/> over a ROUTER socket: each request is read with the routing id of
/// the peer that sent it, given to the handler registered for its message id, and the reply (or the error reply of a
/// <see cref="RequestRejectedException"/>) goes back to that routing id with the request's correlation id. Requests
/// are answered one at a time, in the order they arrive; an asynchronous handler's request is answered before the
/// next is read. A frame that is not a request for a registered contract, or whose body the contract rejects, is
/// dropped and counted in the socket's <see cref="ZmqSocket.DroppedMessages"/>: ZeroMQ has no per-peer close, so the
/// requester's timeout is its answer. Any other exception from a handler ends <see cref="RunAsync"/>.
/// </summary>
public sealed class ZmqResponder
{
    private readonly ZmqSocket _socket;
    private readonly Dictionary<int, ZmqRequestRoute> _routes = [];
    private ZmqMessage? _routingId;
    private int _running;
    private readonly ArrayBufferWriter<byte> _frame = new();

    /// <summary>
    /// Answers requests on <paramref name="router"/>. Unless its <see cref="ZmqSocket.MaxMessageSize"/> was set, it
    /// becomes the envelope plus <see cref="MessageBounds.DefaultMaxEncodedSize"/>: libzmq then drops a peer that sends
    /// a larger frame before reading it.
    /// </summary>
    /// <param name="router">A ROUTER socket, bound or connected.</param>
    /// <exception cref="ArgumentException"><paramref name="router"/> is not a ROUTER.</exception>
    public ZmqResponder(ZmqSocket router)
    {
        ArgumentNullException.ThrowIfNull(router);
        if (router.Type != ZmqSocketType.Router)
        {
            throw new ArgumentException($"a responder needs a ROUTER socket, not {router.Type}", nameof(router));
        }

        _socket = router;
        if (router.MaxMessageSize < 0)
        {
            router.MaxMessageSize = RequestEnvelope.HeaderLength + (long)MessageBounds.DefaultMaxEncodedSize;
        }
    }

    /// <summary>Answers every <typeparamref name="TRequest"/> with <paramref name="handler"/>.</summary>
    /// <param name="handler">Returns the reply.</param>
    /// <returns>This responder.</returns>
    /// <exception cref="ArgumentException">A handler for <typeparamref name="TRequest"/>'s id is already registered.</exception>
    public ZmqResponder OnRequest<TRequest, TReply>(ZmqRequestHandler<TRequest, TReply> handler)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ArgumentNullException.ThrowIfNull(handler);
        _routes.Add(TRequest.MessageId, new ZmqSyncRequestRoute<TRequest, TReply>(handler));
        return this;
    }

    /// <summary>Answers every <typeparamref name="TRequest"/> with <paramref name="handler"/>, when its task completes.</summary>
    /// <param name="handler">Returns the reply.</param>
    /// <returns>This responder.</returns>
    /// <exception cref="ArgumentException">A handler for <typeparamref name="TRequest"/>'s id is already registered.</exception>
    public ZmqResponder OnRequestAsync<TRequest, TReply>(ZmqAsyncRequestHandler<TRequest, TReply> handler)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        ArgumentNullException.ThrowIfNull(handler);
        _routes.Add(TRequest.MessageId, new ZmqAsyncRequestRoute<TRequest, TReply>(handler));
        return this;
    }

    /// <summary>
    /// Reads and answers requests until <paramref name="cancellationToken"/> is cancelled or the socket is disposed;
    /// register handlers and bind or connect first, since the loop holds the socket.
    /// </summary>
    /// <param name="cancellationToken">Ends the loop with <see cref="OperationCanceledException"/>.</param>
    /// <returns>A task that ends with the loop.</returns>
    /// <exception cref="InvalidOperationException">The loop is already running.</exception>
    public Task RunAsync(CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref _running, 1) != 0)
        {
            throw new InvalidOperationException("The responder is already running.");
        }

        return ServeAsync(cancellationToken);
    }

    internal void CountDropped() => _socket.CountDropped();

    internal void SendReply<TReply>(long correlation, in TReply reply)
        where TReply : IMessage<TReply>
    {
        _socket.Send(_routingId!, more: true);
        _socket.Send(ZmqMessageFrames.Enveloped(_frame, EnvelopeKind.Reply, correlation, reply));
    }

    internal void SendError(long correlation, RequestRejectedException rejection)
    {
        _socket.Send(_routingId!, more: true);
        _socket.Send(ZmqMessageFrames.Error(_frame, correlation, rejection));
    }

    /// <summary>The loop; it owns the two frames it receives into, freed when it ends.</summary>
    private async Task ServeAsync(CancellationToken cancellationToken)
    {
        using var routingId = new ZmqMessage();
        using var request = new ZmqMessage();
        _routingId = routingId;
        try
        {
            await ServeFramesAsync(routingId, request, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _routingId = null;
            Volatile.Write(ref _running, 0);
        }
    }

    private async Task ServeFramesAsync(ZmqMessage routingId, ZmqMessage request, CancellationToken cancellationToken)
    {
        while (true)
        {
            await _socket.ReceiveAsync(routingId, cancellationToken).ConfigureAwait(false);

            // The frames of one message arrive together: the rest are already queued.
            if (!routingId.More)
            {
                CountDropped();
                continue;
            }

            _socket.Receive(request);
            if (request.More)
            {
                while (request.More)
                {
                    _socket.Receive(request);
                }

                CountDropped();
                continue;
            }

            var answered = Dispatch(request.Data);
            if (!answered.IsCompletedSuccessfully)
            {
                await answered.ConfigureAwait(false);
            }
        }
    }

    private ValueTask Dispatch(ReadOnlySpan<byte> frame)
    {
        if (!RequestEnvelope.TryRead(frame, out var header) || header.Kind != EnvelopeKind.Request || !_routes.TryGetValue(header.Tag, out var route))
        {
            CountDropped();
            return default;
        }

        return route.Handle(this, header.Correlation, frame[RequestEnvelope.HeaderLength..]);
    }
}
