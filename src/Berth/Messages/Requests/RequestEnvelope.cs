using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;

namespace Berth.Messages.Requests;

/// <summary>
/// The request/response envelope: 16 little-endian bytes at the start of a frame body, before the message body. First
/// an int32 kind (<see cref="EnvelopeKind"/>: three ids reserved at the bottom of the int32 range, where a plain
/// message's id would be), then the int64 correlation id, then the int32 tag (the message id of what follows, or an error
/// code). A receiver tells an enveloped frame from a plain message by its first four bytes alone, whatever the framing.
/// </summary>
public static class RequestEnvelope
{
    /// <summary>Bytes the envelope puts before the message body.</summary>
    public const int HeaderLength = sizeof(int) + sizeof(long) + sizeof(int);

    /// <summary>Bytes after the kind: the correlation id and the tag.</summary>
    internal const int TailLength = HeaderLength - sizeof(int);

    /// <summary>True when <paramref name="messageId"/>, read where a plain message's id would be, opens an envelope.</summary>
    public static bool IsEnvelope(int messageId) => messageId is >= (int)EnvelopeKind.Request and <= (int)EnvelopeKind.Error;

    /// <summary>Writes the envelope header; the message body, or the error description, goes after it.</summary>
    /// <exception cref="ArgumentException">The writer is not little-endian.</exception>
    public static void Write(ref PacketWriter writer, in EnvelopeHeader header)
    {
        if (writer.Endianness != Endianness.Little)
        {
            throw new ArgumentException("The envelope is little-endian; the writer is big-endian.", nameof(writer));
        }

        writer.WriteInt32((int)header.Kind);
        writer.WriteInt64(header.Correlation);
        writer.WriteInt32(header.Tag);
    }

    /// <summary>Reads the envelope header at the start of <paramref name="body"/>; false when it is not one (too short, or a plain message).</summary>
    public static bool TryRead(ReadOnlySpan<byte> body, out EnvelopeHeader header)
    {
        header = default;
        if (body.Length < HeaderLength)
        {
            return false;
        }

        var kind = BinaryPrimitives.ReadInt32LittleEndian(body);
        if (!IsEnvelope(kind))
        {
            return false;
        }

        var (correlation, tag) = ReadTail(body[sizeof(int)..]);
        header = new EnvelopeHeader((EnvelopeKind)kind, correlation, tag);
        return true;
    }

    /// <summary>As <see cref="TryRead(ReadOnlySpan{byte}, out EnvelopeHeader)"/>, for a body that may span segments.</summary>
    public static bool TryRead(in ReadOnlySequence<byte> body, out EnvelopeHeader header)
    {
        Span<byte> bytes = stackalloc byte[HeaderLength];
        header = default;
        if (body.Length < HeaderLength)
        {
            return false;
        }

        body.Slice(0, HeaderLength).CopyTo(bytes);
        return TryRead(bytes, out header);
    }

    /// <summary>Reads the correlation id and the tag from the bytes after the kind, which the packet router already consumed.</summary>
    internal static bool TryReadTail(in ReadOnlySequence<byte> afterKind, out long correlation, out int tag)
    {
        // Almost every frame is one segment: read it in place rather than slice and copy the sequence.
        if (afterKind.FirstSpan.Length >= TailLength)
        {
            (correlation, tag) = ReadTail(afterKind.FirstSpan);
            return true;
        }

        if (afterKind.Length < TailLength)
        {
            (correlation, tag) = (0, 0);
            return false;
        }

        Span<byte> bytes = stackalloc byte[TailLength];
        afterKind.Slice(0, TailLength).CopyTo(bytes);
        (correlation, tag) = ReadTail(bytes);
        return true;
    }

    private static (long Correlation, int Tag) ReadTail(ReadOnlySpan<byte> tail) =>
        (BinaryPrimitives.ReadInt64LittleEndian(tail), BinaryPrimitives.ReadInt32LittleEndian(tail[sizeof(long)..]));
}
