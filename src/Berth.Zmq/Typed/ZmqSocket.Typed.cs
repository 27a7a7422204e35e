using System.Buffers;
using Berth.Messages;
using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed unsafe partial class ZmqSocket
{
    private ArrayBufferWriter<byte>? _typedFrame;
    private long _droppedMessages;

    /// <summary>
    /// Messages a typed receive dropped: a frame whose id is not the awaited contract's, a body the contract rejects,
    /// or a multipart message not shaped as asked. ZeroMQ has no per-peer close, so a malformed message costs only
    /// itself and is counted here.
    /// </summary>
    public long DroppedMessages => Volatile.Read(ref _droppedMessages);

    /// <summary>
    /// Sends <paramref name="message"/> as one frame (its id, then its body), serialized into a buffer this socket
    /// reuses, blocking while the high-water mark is reached (up to <see cref="SendTimeout"/>).
    /// </summary>
    /// <param name="message">The message.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <exception cref="ArgumentException">A non-nullable member is null or a bound of the contract is exceeded; nothing is sent.</exception>
    /// <exception cref="TimeoutException"><see cref="SendTimeout"/> elapsed.</exception>
    public void SendMessage<TMessage>(in TMessage message, bool more = false)
        where TMessage : IMessage<TMessage>
    {
        Enter();
        try
        {
            if (!SendCore(ZmqMessageFrames.Plain(TypedFrame, message), more ? SendMoreFlag : 0))
            {
                throw SendTimedOut();
            }
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Sends <paramref name="message"/> as one frame if that is possible without blocking.</summary>
    /// <param name="message">The message.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <returns>False when the socket cannot accept the frame now.</returns>
    /// <exception cref="ArgumentException">As for <see cref="SendMessage{TMessage}(in TMessage, bool)"/>.</exception>
    public bool TrySendMessage<TMessage>(in TMessage message, bool more = false)
        where TMessage : IMessage<TMessage>
    {
        Enter();
        try
        {
            return SendCore(ZmqMessageFrames.Plain(TypedFrame, message), DontWaitFlag | (more ? SendMoreFlag : 0));
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Receives the next single-frame message that reads as a <typeparamref name="TMessage"/>, blocking until one
    /// arrives (up to <see cref="ReceiveTimeout"/>); messages that do not are dropped and counted in <see cref="DroppedMessages"/>.
    /// </summary>
    /// <returns>The message, read straight from the received frame.</returns>
    /// <exception cref="TimeoutException"><see cref="ReceiveTimeout"/> elapsed.</exception>
    public TMessage ReceiveMessage<TMessage>()
        where TMessage : IMessage<TMessage> =>
        ReceiveTyped<TMessage>(null, 0, out var message) ? message : throw ReceiveTimedOut();

    /// <summary>
    /// Receives the next two-frame message, a routing frame then a <typeparamref name="TMessage"/> (what a ROUTER
    /// receives from a DEALER), blocking until one arrives; other messages are dropped and counted in <see cref="DroppedMessages"/>.
    /// </summary>
    /// <param name="routingId">Receives the routing frame; send it back first to answer that peer.</param>
    /// <returns>The message.</returns>
    /// <exception cref="TimeoutException"><see cref="ReceiveTimeout"/> elapsed.</exception>
    public TMessage ReceiveMessage<TMessage>(ZmqMessage routingId)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(routingId);
        return ReceiveTyped<TMessage>(routingId, 0, out var message) ? message : throw ReceiveTimedOut();
    }

    /// <summary>
    /// Receives a waiting single-frame <typeparamref name="TMessage"/> without blocking; waiting messages that do not
    /// read as one are dropped and counted in <see cref="DroppedMessages"/> on the way.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <returns>False when no such message is waiting.</returns>
    public bool TryReceiveMessage<TMessage>(out TMessage message)
        where TMessage : IMessage<TMessage> =>
        ReceiveTyped(null, DontWaitFlag, out message);

    /// <summary>As <see cref="ReceiveMessage{TMessage}(ZmqMessage)"/>, without blocking.</summary>
    /// <param name="routingId">Receives the routing frame.</param>
    /// <param name="message">The message.</param>
    /// <returns>False when no such message is waiting.</returns>
    public bool TryReceiveMessage<TMessage>(ZmqMessage routingId, out TMessage message)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(routingId);
        return ReceiveTyped(routingId, DontWaitFlag, out message);
    }

    /// <summary>Counts a message a typed layer above this socket dropped.</summary>
    internal void CountDropped() => Interlocked.Increment(ref _droppedMessages);

    /// <summary>The readiness of this socket's descriptor, for a layer that waits for replies while others send.</summary>
    internal ZmqReadiness AttachReadiness()
    {
        Enter();
        try
        {
            return _readiness ??= new ZmqReadiness(_context.Reactor, RawNotificationFd(), _context.InlineCompletions);
        }
        finally
        {
            Exit();
        }
    }

    private ArrayBufferWriter<byte> TypedFrame => _typedFrame ??= new ArrayBufferWriter<byte>();

    private bool ReceiveTyped<TMessage>(ZmqMessage? routingId, int flags, out TMessage message)
        where TMessage : IMessage<TMessage>
    {
        Enter();
        try
        {
            while (true)
            {
                var msg = Scratch;
                if (routingId is not null)
                {
                    if (!ReceiveMessageCore(routingId.Pointer, flags))
                    {
                        message = default!;
                        return false;
                    }

                    // The frames of one message arrive together: the rest are already queued.
                    if (!routingId.More)
                    {
                        Interlocked.Increment(ref _droppedMessages);
                        continue;
                    }

                    ReceiveMessageCore(msg, 0);
                }
                else if (!ReceiveMessageCore(msg, flags))
                {
                    message = default!;
                    return false;
                }

                if (LibZmq.MsgMore(msg) != 0)
                {
                    DiscardRest(msg);
                }
                else if (ZmqMessageFrames.TryReadPlain<TMessage>(new ReadOnlySpan<byte>(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg)), out var read))
                {
                    message = read;
                    return true;
                }

                Interlocked.Increment(ref _droppedMessages);
            }
        }
        finally
        {
            Exit();
        }
    }

    private void DiscardRest(ZmqMsg* msg)
    {
        while (LibZmq.MsgMore(msg) != 0)
        {
            ReceiveMessageCore(msg, 0);
        }
    }
}
