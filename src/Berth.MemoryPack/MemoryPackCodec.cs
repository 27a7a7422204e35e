using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using Berth.Buffers;
using Berth.Messages;
using MemoryPack;

namespace Berth.MemoryPack;

/// <summary>
/// A MemoryPack type as a Berth message body, so a project with <c>[MemoryPackable]</c> types routes and sends them with
/// <see cref="MessageRouting"/> and <see cref="MessageSending"/> unchanged. The packet is the little-endian int32 id
/// and MemoryPack's encoding.
/// </summary>
/// <remarks>
/// MemoryPack writes to an <see cref="IBufferWriter{T}"/> class and learns the size only as it goes, so a send
/// serializes into a per-thread scratch buffer and copies that into the send queue: one copy, no allocation once the
/// scratch has grown to the largest body. A read deserializes from the received frame and allocates what the type
/// holds (nothing for an unmanaged struct).
/// </remarks>
/// <typeparam name="TMessage">
/// The <c>[MemoryPackable]</c> type; MemoryPack asks the trimmer to keep all its members, as its own serializer calls do.
/// </typeparam>
public sealed class MemoryPackCodec<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.All)] TMessage> : MessageCodec<TMessage>
    where TMessage : IMemoryPackable<TMessage>
{
    /// <summary>The default bound on a body: 64 KiB.</summary>
    public const int DefaultMaxEncodedSize = 64 * 1024;

    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_scratch;

    /// <summary>Creates a codec for packets with <paramref name="messageId"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxEncodedSize"/> is not positive.</exception>
    public MemoryPackCodec(int messageId, int maxEncodedSize = DefaultMaxEncodedSize)
        : base(messageId, maxEncodedSize)
    {
    }

    /// <inheritdoc />
    protected override void WriteBody(ref PacketWriter writer, TMessage message)
    {
        var scratch = t_scratch ??= new ArrayBufferWriter<byte>();
        scratch.ResetWrittenCount();
        MemoryPackSerializer.Serialize(scratch, message);
        if (scratch.WrittenCount > MaxEncodedSize)
        {
            throw new ArgumentException($"{typeof(TMessage).Name} encodes to {scratch.WrittenCount} bytes, over its bound of {MaxEncodedSize}.", nameof(message));
        }

        writer.WriteBytes(scratch.WrittenSpan);
    }

    /// <inheritdoc />
    protected override TMessage ReadBody(in ReadOnlySequence<byte> body)
    {
        try
        {
            return MemoryPackSerializer.Deserialize<TMessage>(body)!;
        }
        catch (MemoryPackSerializationException e)
        {
            throw Rejected(e);
        }
    }
}
