using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace Berth.Tests.Tcp;

/// <summary>A plain blocking socket speaking Berth frames, so tests see exactly the bytes on the wire.</summary>
internal sealed class RawClient : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public RawClient(IPEndPoint endPoint)
    {
        Socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Socket.ReceiveTimeout = (int)Patience.TotalMilliseconds;
        Socket.SendTimeout = (int)Patience.TotalMilliseconds;
        Socket.Connect(endPoint);
    }

    public Socket Socket { get; }

    public static byte[] Frame(ReadOnlySpan<byte> body)
    {
        var frame = new byte[4 + body.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, (uint)body.Length);
        body.CopyTo(frame.AsSpan(4));
        return frame;
    }

    public void SendFrame(ReadOnlySpan<byte> body) => Send(Frame(body));

    public void Send(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            bytes = bytes[Socket.Send(bytes)..];
        }
    }

    public byte[] ReceiveFrame()
    {
        Span<byte> header = stackalloc byte[4];
        ReceiveExactly(header);
        var body = new byte[BinaryPrimitives.ReadUInt32LittleEndian(header)];
        ReceiveExactly(body);
        return body;
    }

    public void ReceiveExactly(Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var received = Socket.Receive(destination);
            if (received == 0)
            {
                throw new EndOfStreamException("The server closed the connection.");
            }

            destination = destination[received..];
        }
    }

    /// <summary>True when the server closed or reset the connection (after any bytes still in flight are drained).</summary>
    public bool WaitForClose()
    {
        var sink = new byte[65536];
        try
        {
            while (Socket.Receive(sink) > 0)
            {
            }

            return true;
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
            return true;
        }
    }

    public void Dispose() => Socket.Dispose();
}
