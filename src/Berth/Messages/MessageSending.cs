using Berth.Buffers;
using Berth.Connections;

namespace Berth.Messages;

/// <summary>
/// Typed sends on a <see cref="Connection"/>: the message id (little-endian int32, as <see cref="Connections.Packets.PacketRouter"/>
/// reads it) and the body, in the contract's byte order, are serialized straight into the pooled send queue, with no
/// intermediate array.
/// </summary>
public static class MessageSending
{
    /// <summary>Queues <paramref name="message"/> as one frame; false when the queue is full or the connection closing.</summary>
    /// <exception cref="ArgumentException">A non-nullable member is null, or a bound is exceeded; nothing is queued.</exception>
    public static bool TrySend<TMessage>(this Connection connection, in TMessage message)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(connection);
        return connection.TrySend(message, Frames<TMessage>.Write);
    }

    /// <summary>
    /// Queues <paramref name="message"/> as one frame, answering a full queue by the connection's
    /// <see cref="FullQueuePolicy"/> as <see cref="Connection.SendAsync(ReadOnlyMemory{byte}, CancellationToken)"/> does.
    /// </summary>
    /// <exception cref="ArgumentException">As for <see cref="TrySend{TMessage}(Connection, in TMessage)"/>.</exception>
    public static ValueTask SendAsync<TMessage>(this Connection connection, in TMessage message, CancellationToken cancellationToken = default)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(connection);
        return connection.SendAsync(message, Frames<TMessage>.Write, cancellationToken);
    }

    /// <summary>Queues <paramref name="message"/> as one frame, its body written by <paramref name="codec"/>; otherwise as the generated-contract form.</summary>
    /// <exception cref="ArgumentException">The body came to more than the codec's bound; nothing is queued.</exception>
    public static bool TrySend<TMessage>(this Connection connection, MessageCodec<TMessage> codec, TMessage message)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(codec);
        return connection.TrySend((codec, message), CodecFrames<TMessage>.Write);
    }

    /// <summary>Queues <paramref name="message"/> as one frame, its body written by <paramref name="codec"/>, answering a full queue as the generated-contract form does.</summary>
    /// <exception cref="ArgumentException">The body came to more than the codec's bound; nothing is queued.</exception>
    public static ValueTask SendAsync<TMessage>(this Connection connection, MessageCodec<TMessage> codec, TMessage message, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(connection);
        ArgumentNullException.ThrowIfNull(codec);
        return connection.SendAsync((codec, message), CodecFrames<TMessage>.Write, cancellationToken);
    }

    /// <summary>One cached frame writer per codec message type, the codec and message passed as a value tuple, so a send allocates nothing.</summary>
    private static class CodecFrames<TMessage>
    {
        public static readonly FrameWriter<(MessageCodec<TMessage> Codec, TMessage Message)> Write = static (ref PacketWriter writer, (MessageCodec<TMessage> Codec, TMessage Message) state) =>
        {
            writer.WriteInt32(state.Codec.MessageId);
            state.Codec.Write(ref writer, state.Message);
        };
    }

    /// <summary>One cached frame writer per contract, so a send allocates no delegate.</summary>
    private static class Frames<TMessage>
        where TMessage : IMessage<TMessage>
    {
        public static readonly FrameWriter<TMessage> Write = static (ref PacketWriter writer, TMessage message) =>
        {
            writer.WriteInt32(TMessage.MessageId);
            var idOrder = writer.Endianness;
            if (TMessage.ByteOrder == idOrder)
            {
                // The usual little-endian contract: the id's order is the body's, and switching would recompute it twice a frame.
                TMessage.Write(ref writer, message);
                return;
            }

            writer.Endianness = TMessage.ByteOrder;
            TMessage.Write(ref writer, message);
            writer.Endianness = idOrder;
        };
    }
}
