using System.Net.Sockets;
using Berth.Tcp.Send;

namespace Berth.Tcp.Transport;

/// <summary>A plain TCP socket: receives with the socket's cached awaitable, sends with one gather call per batch.</summary>
internal sealed class SocketTransport(Socket socket) : ConnectionTransport(socket)
{
    private readonly SocketSender _sender = new();

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => Socket.ReceiveAsync(buffer, SocketFlags.None);

    public override ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(Socket, buffers);

    public override void Dispose()
    {
        Socket.Dispose();
        _sender.Dispose();
    }
}
