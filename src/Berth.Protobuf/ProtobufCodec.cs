using System.Buffers;
using Berth.Buffers;
using Berth.Messages;
using Google.Protobuf;

namespace Berth.Protobuf;

/// <summary>
/// A Google.Protobuf message as a Berth message body, so a project with <c>.proto</c> files routes and sends its
/// generated classes with <see cref="MessageRouting"/> and <see cref="MessageSending"/> unchanged. The packet is the
/// little-endian int32 id and the protobuf encoding, FastPortSharp's layout under a <c>u16</c> length-prefixed format.
/// </summary>
/// <remarks>
/// A send computes the size, then serializes straight into the pooled send queue: no intermediate array. A read parses
/// from the received frame without copying it, and allocates the message object and its own strings, byte strings and
/// repeated fields, as Google.Protobuf does.
/// </remarks>
/// <typeparam name="TMessage">The generated message class.</typeparam>
public sealed class ProtobufCodec<TMessage> : MessageCodec<TMessage>
    where TMessage : Google.Protobuf.IMessage<TMessage>, IBufferMessage
{
    /// <summary>The default bound on a body: 64 KiB.</summary>
    public const int DefaultMaxEncodedSize = 64 * 1024;

    private readonly MessageParser<TMessage> _parser;

    /// <summary>Creates a codec for packets with <paramref name="messageId"/>, parsing bodies with <paramref name="parser"/> (the class's <c>Parser</c>).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxEncodedSize"/> is not positive.</exception>
    public ProtobufCodec(int messageId, MessageParser<TMessage> parser, int maxEncodedSize = DefaultMaxEncodedSize)
        : base(messageId, maxEncodedSize)
    {
        ArgumentNullException.ThrowIfNull(parser);
        _parser = parser;
    }

    /// <inheritdoc />
    protected override void WriteBody(ref PacketWriter writer, TMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        var size = message.CalculateSize();
        if (size > MaxEncodedSize)
        {
            throw new ArgumentException($"{typeof(TMessage).Name} encodes to {size} bytes, over its bound of {MaxEncodedSize}.", nameof(message));
        }

        message.WriteTo(writer.TakeSpan(size));
    }

    /// <inheritdoc />
    protected override TMessage ReadBody(in ReadOnlySequence<byte> body)
    {
        try
        {
            return _parser.ParseFrom(body);
        }
        catch (InvalidProtocolBufferException e)
        {
            throw Rejected(e);
        }
    }
}
