using System.Buffers.Binary;
using NetCoreServer;

namespace Berth.NetCoreServerEcho;

/// <summary>
/// Echoes Berth's default frames (u32 little-endian body length, then the body) byte-identical on NetCoreServer's
/// session callback: the whole frames of each receive go back in one <c>SendAsync</c> (which copies them into the
/// session's send buffer), and a partial frame waits in a carry buffer for the rest. A length over 1 MiB disconnects.
/// </summary>
internal sealed class FramedEchoSession(TcpServer server) : TcpSession(server)
{
    private const int HeaderLength = 4;
    private const int MaxBodyLength = 1 << 20;

    private byte[] _carry = new byte[HeaderLength];
    private int _carried;

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        if (_carried == 0)
        {
            Echo(buffer, (int)offset, (int)size);
            return;
        }

        Append(buffer.AsSpan((int)offset, (int)size));
        var carried = _carried;
        _carried = 0;
        Echo(_carry, 0, carried);
    }

    /// <summary>Sends back the whole frames of <paramref name="bytes"/>[offset, offset+size) and carries the rest.</summary>
    private void Echo(byte[] bytes, int offset, int size)
    {
        var whole = 0;
        while (size - whole >= HeaderLength)
        {
            var body = BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(offset + whole));
            if (body > MaxBodyLength)
            {
                Disconnect();
                return;
            }

            if (size - whole - HeaderLength < body)
            {
                break;
            }

            whole += HeaderLength + (int)body;
        }

        if (whole > 0)
        {
            SendAsync(bytes, offset, whole);
        }

        // The carry buffer may be the source: the rest moves to its front, which never overlaps what was sent.
        var rest = bytes.AsSpan(offset + whole, size - whole);
        _carried = 0;
        Append(rest);
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        if (_carried + bytes.Length > _carry.Length)
        {
            Array.Resize(ref _carry, Math.Max(_carried + bytes.Length, _carry.Length * 2));
        }

        bytes.CopyTo(_carry.AsSpan(_carried));
        _carried += bytes.Length;
    }
}
