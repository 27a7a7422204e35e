using System.Buffers.Binary;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The allocation-free counterpart of <see cref="AllocatingPacket"/>: the same wire layout
/// (u16 LE total size, u16 LE id, body) written straight into caller-provided memory, and parsed
/// by slicing.
/// </summary>
internal static class PooledPacketWriter
{
    public static int Write(Span<byte> destination, ushort id, ReadOnlySpan<byte> body)
    {
        var size = AllocatingPacket.HeaderSize + body.Length;
        BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)size);
        BinaryPrimitives.WriteUInt16LittleEndian(destination[2..], id);
        body.CopyTo(destination[AllocatingPacket.HeaderSize..]);
        return size;
    }

    public static ReadOnlySpan<byte> ParseBody(ReadOnlySpan<byte> frame) =>
        frame[AllocatingPacket.HeaderSize..BinaryPrimitives.ReadUInt16LittleEndian(frame)];
}
