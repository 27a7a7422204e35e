namespace Berth.Benchmarks.Core;

/// <summary>
/// The packet builder as the zero-allocation writer article found it: a <see cref="List{T}"/> of bytes fed by
/// <see cref="BitConverter.GetBytes(int)"/>, reversed for big-endian. The baseline the packet writer must beat.
/// </summary>
internal sealed class ListPacketBuilder(bool isLittleEndian)
{
    private readonly List<byte> _packetData = new(64);

    public int Count => _packetData.Count;

    public void Clear() => _packetData.Clear();

    public ListPacketBuilder Byte(byte value)
    {
        _packetData.Add(value);
        return this;
    }

    public ListPacketBuilder Short(short value) => Append(BitConverter.GetBytes(value));

    public ListPacketBuilder UShort(ushort value) => Append(BitConverter.GetBytes(value));

    public ListPacketBuilder Int(int value) => Append(BitConverter.GetBytes(value));

    public ListPacketBuilder UInt(uint value) => Append(BitConverter.GetBytes(value));

    public ListPacketBuilder Long(long value) => Append(BitConverter.GetBytes(value));

    public ListPacketBuilder ULong(ulong value) => Append(BitConverter.GetBytes(value));

    public ListPacketBuilder String(string ascii)
    {
        _packetData.AddRange(System.Text.Encoding.ASCII.GetBytes(ascii));
        return this;
    }

    private ListPacketBuilder Append(byte[] bytes)
    {
        if (BitConverter.IsLittleEndian != isLittleEndian)
        {
            Array.Reverse(bytes);
        }

        _packetData.AddRange(bytes);
        return this;
    }
}
