namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The packet shape the source article measured: an object owning a copy of its body, serialized
/// by concatenating <see cref="BitConverter.GetBytes(ushort)"/> arrays, and parsed with LINQ.
/// It exists only as the baseline the pooled writer is compared with.
/// </summary>
internal sealed class AllocatingPacket
{
    public const int HeaderSize = 4;

    public AllocatingPacket(ushort id, ReadOnlySpan<byte> body)
    {
        Id = id;
        Body = body.ToArray();
    }

    public ushort Id { get; }

    public byte[] Body { get; }

    public byte[] Serialize()
    {
        var size = BitConverter.GetBytes((ushort)(HeaderSize + Body.Length));
        var id = BitConverter.GetBytes(Id);
        return [.. size, .. id, .. Body];
    }

    public static byte[] ParseBody(byte[] frame) =>
        frame.Skip(HeaderSize).Take(BitConverter.ToUInt16(frame, 0) - HeaderSize).ToArray();
}
