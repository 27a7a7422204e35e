using System.Net.Sockets;
using Berth.Tcp.Send;

namespace Berth.Tcp.Transport;

/// <summary>A plain TCP socket: receives with the socket's cached awaitable, sends with one gather call per batch.</summary>
internal sealed class SocketTransport(Socket socket) : ConnectionTransport(socket)
{
    private readonly SocketSender _sender = new();
    private readonly ReadableWait _readable = new(socket);

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        var receive = Socket.ReceiveAsync(buffer, SocketFlags.None);
        return buffer.IsEmpty && !receive.IsCompleted ? _readable.WaitAsync(receive) : receive;
    }

    public override ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(Socket, buffers);

    public override void Dispose()
    {
        Socket.Dispose();
        _sender.Dispose();
    }
}
