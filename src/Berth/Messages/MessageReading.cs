using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// Reads a message body (the bytes after the packet layer's id). <see cref="Read{TMessage}"/> throws on a rejected
/// body; the <c>TryRead</c> forms answer with a bool, for a caller such as a raw
/// <see cref="Connections.Packets.PacketRouter.Map"/> handler that decides itself what a rejected body costs. A valid
/// body allocates only the message's own strings, arrays and lists; a rejected one also its
/// <see cref="MessageFormatException"/>, which the generated reader throws and <c>TryRead</c> catches.
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

    /// <summary>
    /// Reads one contiguous <paramref name="body"/> in the contract's byte order, as <see cref="IMessage{TSelf}.Read"/>
    /// does. A body of exactly <see cref="IMessage{TSelf}.BlockSize"/> bytes is one copy; a shorter one (an older
    /// writer's) or a longer one (a newer writer's) is read field by field, which gives missing trailing fields their
    /// defaults, skips extra ones and checks the bound.
    /// </summary>
    /// <exception cref="MessageFormatException">The body is truncated, malformed or beyond a bound.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TMessage Read<TMessage>(ReadOnlySpan<byte> body)
        where TMessage : IMessage<TMessage>
    {
        var size = MessageBlock.Size<TMessage>();
        return size != 0 && body.Length == size
            ? Unsafe.ReadUnaligned<TMessage>(ref MemoryMarshal.GetReference(body))
            : ReadFields<TMessage>(body);
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
            message = Read<TMessage>(body);
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

    // Out of line so that a block's caller keeps no PacketReader in its frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static TMessage ReadFields<TMessage>(ReadOnlySpan<byte> body)
        where TMessage : IMessage<TMessage>
    {
        var reader = new PacketReader(body, TMessage.ByteOrder);
        return TMessage.Read(ref reader);
    }
}
