using System.Buffers.Binary;
using System.Net;
using System.Text;

namespace Berth.Tests.Proxy;

/// <summary>
/// PROXY-protocol headers written byte by byte from HAProxy's proxy-protocol.txt (sections 2.1 and 2.2), without
/// the parser's code: the 12-byte v2 signature, the version/command and family/transport nibbles, the big-endian
/// length and address blocks, and TLVs as type, 16-bit big-endian length, value.
/// </summary>
internal static class SpecHeaders
{
    public static readonly byte[] Signature = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    public static byte[] V1(string line) => Encoding.ASCII.GetBytes(line);

    /// <summary>A v2 header: <paramref name="versionCommand"/> is byte 13 (0x21 PROXY, 0x20 LOCAL), <paramref name="familyTransport"/> byte 14 (0x11 TCP4, 0x21 TCP6, 0x31 UNIX stream).</summary>
    public static byte[] V2(byte versionCommand, byte familyTransport, byte[] addresses, params byte[][] tlvs)
    {
        var body = addresses.Concat(tlvs.SelectMany(t => t)).ToArray();
        var header = new byte[16 + body.Length];
        Signature.CopyTo(header, 0);
        header[12] = versionCommand;
        header[13] = familyTransport;
        BinaryPrimitives.WriteUInt16BigEndian(header.AsSpan(14), (ushort)body.Length);
        body.CopyTo(header, 16);
        return header;
    }

    public static byte[] Tcp4(string source, string destination, ushort sourcePort, ushort destinationPort) =>
        [.. IPAddress.Parse(source).GetAddressBytes(), .. IPAddress.Parse(destination).GetAddressBytes(), .. Port(sourcePort), .. Port(destinationPort)];

    public static byte[] Tcp6(string source, string destination, ushort sourcePort, ushort destinationPort) => Tcp4(source, destination, sourcePort, destinationPort);

    public static byte[] UnixPaths(string source, string destination) => [.. Path(source), .. Path(destination)];

    public static byte[] Tlv(byte type, byte[] value)
    {
        var tlv = new byte[3 + value.Length];
        tlv[0] = type;
        BinaryPrimitives.WriteUInt16BigEndian(tlv.AsSpan(1), (ushort)value.Length);
        value.CopyTo(tlv, 3);
        return tlv;
    }

    public static byte[] Tlv(byte type, string value) => Tlv(type, Encoding.UTF8.GetBytes(value));

    /// <summary>The SSL TLV: client bits, 32-bit verify result, then sub-TLVs.</summary>
    public static byte[] Ssl(byte client, uint verify, params byte[][] subTlvs)
    {
        var value = new byte[5];
        value[0] = client;
        BinaryPrimitives.WriteUInt32BigEndian(value.AsSpan(1), verify);
        return Tlv(0x20, [.. value, .. subTlvs.SelectMany(t => t)]);
    }

    private static byte[] Port(ushort port) => [(byte)(port >> 8), (byte)port];

    private static byte[] Path(string path)
    {
        var bytes = new byte[108];
        Encoding.UTF8.GetBytes(path).CopyTo(bytes, 0);
        return bytes;
    }
}
