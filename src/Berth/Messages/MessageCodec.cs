using System.Buffers;
using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// The body codec of a message type the generator does not describe, such as a Google.Protobuf or MemoryPack type, so it
/// goes through the same router and send calls as a generated contract: the packet is the little-endian int32
/// <see cref="MessageId"/> and the body this codec writes. Berth.Protobuf and Berth.MemoryPack implement it.
/// </summary>
/// <typeparam name="TMessage">The message type.</typeparam>
public abstract class MessageCodec<TMessage>
{
    /// <summary>Creates a codec for packets with <paramref name="messageId"/>, whose bodies are at most <paramref name="maxEncodedSize"/> bytes.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxEncodedSize"/> is not positive.</exception>
    protected MessageCodec(int messageId, int maxEncodedSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxEncodedSize);
        MessageId = messageId;
        MaxEncodedSize = maxEncodedSize;
    }

    /// <summary>The id before the body.</summary>
    public int MessageId { get; }

    /// <summary>The largest body the codec writes or reads; a larger one is refused before it is decoded.</summary>
    public int MaxEncodedSize { get; }

    /// <summary>Writes <paramref name="message"/> as a whole body (without its id).</summary>
    /// <exception cref="ArgumentException">The body came to more than <see cref="MaxEncodedSize"/> bytes.</exception>
    public void Write(ref PacketWriter writer, TMessage message)
    {
        var start = writer.BytesWritten;
        WriteBody(ref writer, message);
        var size = writer.BytesWritten - start;
        if (size > MaxEncodedSize)
        {
            throw new ArgumentException($"{typeof(TMessage).Name} encoded to {size} bytes, over its bound of {MaxEncodedSize}.", nameof(message));
        }
    }

    /// <summary>Reads a whole body (without its id), refusing one over <see cref="MaxEncodedSize"/> before decoding it.</summary>
    /// <exception cref="MessageFormatException">The body is over <see cref="MaxEncodedSize"/> or the serializer rejects it.</exception>
    public TMessage Read(in ReadOnlySequence<byte> body) =>
        body.Length > MaxEncodedSize
            ? throw new MessageFormatException(typeof(TMessage).Name, 0, MessageFault.SizeOverBound, $"a {body.Length}-byte body, over the bound of {MaxEncodedSize}")
            : ReadBody(body);

    /// <summary>Serializes <paramref name="message"/> into <paramref name="writer"/>.</summary>
    protected abstract void WriteBody(ref PacketWriter writer, TMessage message);

    /// <summary>Deserializes a body no larger than <see cref="MaxEncodedSize"/>.</summary>
    /// <exception cref="MessageFormatException">The serializer rejects the body (see <see cref="Rejected"/>).</exception>
    protected abstract TMessage ReadBody(in ReadOnlySequence<byte> body);

    /// <summary>The answer to a body the serializer rejected, naming the message type and the serializer's reason.</summary>
    protected static MessageFormatException Rejected(Exception serializerError)
    {
        ArgumentNullException.ThrowIfNull(serializerError);
        return new(typeof(TMessage).Name, 0, MessageFault.Malformed, serializerError.Message);
    }
}
