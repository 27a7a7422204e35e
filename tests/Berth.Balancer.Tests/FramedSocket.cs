using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace Berth.Balancer.Tests;

/// <summary>
/// A plain socket speaking Berth's framing, bound to a chosen loopback address so a backend's line shows whose
/// address it saw; it can begin with raw bytes (a PROXY header of its own). Reads and writes have hang guards only.
/// </summary>
internal sealed class FramedSocket : IDisposable
{
    private static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(30);

    private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);

    private FramedSocket()
    {
    }

    public IPEndPoint LocalEndPoint => (IPEndPoint)_socket.LocalEndPoint!;

    public static async Task<FramedSocket> ConnectAsync(IPAddress from, int port, byte[]? preamble = null)
    {
        var framed = new FramedSocket();
        framed._socket.Bind(new IPEndPoint(from, 0));
        await framed._socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port)).WaitAsync(HangGuard);
        if (preamble is not null)
        {
            await framed._socket.SendAsync(preamble);
        }

        return framed;
    }

    /// <summary>Sends one frame and returns its echo.</summary>
    public async Task<byte[]> EchoAsync(byte[] body)
    {
        var frame = new byte[4 + body.Length];
        BinaryPrimitives.WriteInt32LittleEndian(frame, body.Length);
        body.CopyTo(frame, 4);
        await _socket.SendAsync(frame);
        var header = await ReadAsync(4);
        return await ReadAsync(BinaryPrimitives.ReadInt32LittleEndian(header));
    }

    /// <summary>Whether the peer closed the connection (a read that ends, or a reset).</summary>
    public async Task<bool> ClosedByPeerAsync()
    {
        var buffer = new byte[64];
        try
        {
            while (await _socket.ReceiveAsync(buffer).WaitAsync(HangGuard) > 0)
            {
            }
        }
        catch (SocketException)
        {
            // A reset is a close too.
        }

        return true;
    }

    public void Dispose() => _socket.Dispose();

    private async Task<byte[]> ReadAsync(int length)
    {
        var buffer = new byte[length];
        for (var read = 0; read < length;)
        {
            var n = await _socket.ReceiveAsync(buffer.AsMemory(read)).AsTask().WaitAsync(HangGuard);
            read += n > 0 ? n : throw new IOException("closed before the echo arrived");
        }

        return buffer;
    }
}
