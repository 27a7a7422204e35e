using System.Net;
using System.Net.Sockets;
using Berth.Tcp.Send;

namespace Berth.Tcp.Transport;

/// <summary>A plain TCP socket: receives with the socket's cached awaitable, sends with one gather call per batch.</summary>
internal sealed class SocketTransport(Socket socket) : IConnectionTransport
{
    private readonly SocketSender _sender = new();

    public EndPoint? LocalEndPoint { get; } = socket.LocalEndPoint;

    public EndPoint? RemoteEndPoint { get; } = socket.RemoteEndPoint;

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) => socket.ReceiveAsync(buffer, SocketFlags.None);

    public ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(socket, buffers);

    public void ShutdownSend()
    {
        try
        {
            socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The peer is gone already; closing follows either way.
        }
    }

    public void Abort() => socket.Dispose();

    public void Dispose()
    {
        socket.Dispose();
        _sender.Dispose();
    }
}
