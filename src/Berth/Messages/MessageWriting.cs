using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// Writes a message body (without its id) into any <see cref="IBufferWriter{T}"/>, in the contract's byte order: the
/// bytes <see cref="IMessage{TSelf}.Write"/> writes through a <see cref="PacketWriter"/>. A contract whose memory is its
/// wire form (<see cref="IMessage{TSelf}.BlockSize"/>) is one span asked for, one copy and one advance.
/// </summary>
public static class MessageWriting
{
    /// <summary>Writes <paramref name="message"/> as a whole body at the end of <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentException">
    /// A non-nullable member is null, or a bound is exceeded, as for <see cref="IMessage{TSelf}.Write"/>.
    /// </exception>
    /// <exception cref="InvalidOperationException"><paramref name="destination"/> gave less room than it was asked for.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Write<TMessage>(IBufferWriter<byte> destination, in TMessage message)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(destination);
        var size = MessageBlock.Size<TMessage>();
        if (size == 0)
        {
            WriteFields(destination, message);
            return;
        }

        // The bound and the byte order were settled when BlockSize said yes: every value is these bytes, within the bound.
        var span = destination.GetSpan(size);
        if (span.Length < size)
        {
            throw OutputGaveLess(span.Length, size);
        }

        Unsafe.WriteUnaligned(ref MemoryMarshal.GetReference(span), message);
        destination.Advance(size);
    }

    // Out of line so that a block's caller keeps no PacketWriter in its frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteFields<TMessage>(IBufferWriter<byte> destination, in TMessage message)
        where TMessage : IMessage<TMessage>
    {
        var writer = new PacketWriter(destination, TMessage.ByteOrder);
        TMessage.Write(ref writer, message);
        writer.Flush();
    }

    private static InvalidOperationException OutputGaveLess(int given, int asked) =>
        new($"The output gave {given} bytes where {asked} were asked for.");
}
