using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using Berth.Buffers;
using Berth.Messages;
using Berth.Messages.Requests;

namespace Berth.Zmq;

/// <summary>
/// The layout of a typed ZeroMQ frame, the same bytes a Berth TCP frame carries after its length: a plain message is
/// its id (int32, little-endian) and its body; a request or a reply is the <see cref="RequestEnvelope"/> and the body.
/// </summary>
public static class ZmqMessageFrames
{
    /// <summary>
    /// The largest frame a <typeparamref name="TMessage"/> takes, plain or enveloped: set it as
    /// <see cref="ZmqSocket.MaxMessageSize"/> so libzmq refuses a larger one before it is read.
    /// </summary>
    public static long MaxFrameSize<TMessage>()
        where TMessage : IMessage<TMessage> =>
        RequestEnvelope.HeaderLength + (long)TMessage.Bounds.MaxEncodedSize;

    /// <summary>Writes a plain message frame into <paramref name="buffer"/>, emptied first.</summary>
    internal static ReadOnlySpan<byte> Plain<TMessage>(ArrayBufferWriter<byte> buffer, in TMessage message)
        where TMessage : IMessage<TMessage>
    {
        buffer.ResetWrittenCount();
        BinaryPrimitives.WriteInt32LittleEndian(buffer.GetSpan(sizeof(int)), TMessage.MessageId);
        buffer.Advance(sizeof(int));
        MessageWriting.Write(buffer, message);
        return buffer.WrittenSpan;
    }

    /// <summary>Writes a request or a reply frame into <paramref name="buffer"/>, emptied first.</summary>
    internal static ReadOnlySpan<byte> Enveloped<TMessage>(ArrayBufferWriter<byte> buffer, EnvelopeKind kind, long correlation, in TMessage message)
        where TMessage : IMessage<TMessage>
    {
        buffer.ResetWrittenCount();
        var header = new PacketWriter(buffer);
        RequestEnvelope.Write(ref header, new EnvelopeHeader(kind, correlation, TMessage.MessageId));
        header.Flush();
        MessageWriting.Write(buffer, message);
        return buffer.WrittenSpan;
    }

    /// <summary>Writes an error reply frame: the envelope with the code as its tag, then the description.</summary>
    internal static ReadOnlySpan<byte> Error(ArrayBufferWriter<byte> buffer, long correlation, RequestRejectedException error)
    {
        buffer.ResetWrittenCount();
        var writer = new PacketWriter(buffer);
        RequestEnvelope.Write(ref writer, new EnvelopeHeader(EnvelopeKind.Error, correlation, error.Code));
        var text = error.Message;
        MessageWire.WriteString(ref writer, text.Length > RequestRejectedException.MaxMessageLength ? text[..RequestRejectedException.MaxMessageLength] : text);
        writer.Flush();
        return buffer.WrittenSpan;
    }

    /// <summary>Reads a plain message frame; false when its id is another contract's or its body is malformed.</summary>
    internal static bool TryReadPlain<TMessage>(ReadOnlySpan<byte> frame, [MaybeNullWhen(false)] out TMessage message)
        where TMessage : IMessage<TMessage>
    {
        if (frame.Length < sizeof(int) || BinaryPrimitives.ReadInt32LittleEndian(frame) != TMessage.MessageId)
        {
            message = default;
            return false;
        }

        return MessageReading.TryRead(frame[sizeof(int)..], out message, out _);
    }


    /// <summary>Reads an error reply's description.</summary>
    internal static string ReadErrorText(ReadOnlySpan<byte> body)
    {
        var reader = new PacketReader(body);
        try
        {
            return MessageWire.ReadString(ref reader, "Error.Message");
        }
        catch (MessageFormatException)
        {
            return "The peer rejected the request (its description was malformed).";
        }
    }
}
