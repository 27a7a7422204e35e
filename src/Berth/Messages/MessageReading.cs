using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// Reads a message body (the bytes after the packet layer's id) for a caller that wants a bool rather than an
/// exception, such as a raw <see cref="Connections.Packets.PacketRouter.Map"/> handler that decides itself what a
/// rejected body costs. A valid body allocates only the message's own strings, arrays and lists; a rejected one also
/// its <see cref="MessageFormatException"/>, which the generated reader throws and this method catches.
/// </summary>
public static class MessageReading
{
    /// <summary>Reads <paramref name="body"/>, which may span segments, in the contract's byte order.</summary>
    /// <returns>True with the message; false with the <see cref="MessageFormatException"/> naming field, offset and fault.</returns>
    public static bool TryRead<TMessage>(
        in ReadOnlySequence<byte> body,
        [MaybeNullWhen(false)] out TMessage message,
        [NotNullWhen(false)] out MessageFormatException? error)
        where TMessage : IMessage<TMessage>
    {
        try
        {
            var reader = new PacketReader(body, TMessage.ByteOrder);
            message = TMessage.Read(ref reader);
            error = null;
            return true;
        }
        catch (MessageFormatException e)
        {
            message = default;
            error = e;
            return false;
        }
    }

    /// <summary>Reads one contiguous <paramref name="body"/> in the contract's byte order.</summary>
    /// <returns>True with the message; false with the <see cref="MessageFormatException"/> naming field, offset and fault.</returns>
    public static bool TryRead<TMessage>(
        ReadOnlySpan<byte> body,
        [MaybeNullWhen(false)] out TMessage message,
        [NotNullWhen(false)] out MessageFormatException? error)
        where TMessage : IMessage<TMessage>
    {
        try
        {
            var reader = new PacketReader(body, TMessage.ByteOrder);
            message = TMessage.Read(ref reader);
            error = null;
            return true;
        }
        catch (MessageFormatException e)
        {
            message = default;
            error = e;
            return false;
        }
    }
}
