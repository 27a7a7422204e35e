using System.Net.Sockets;
using Berth.Tcp.Send;

namespace Berth.Tcp.Transport;

/// <summary>
/// A plain TCP socket: receives with the socket's cached awaitable, sends with one gather call per batch.
/// <paramref name="activeOpen"/> says this side connected (see <see cref="PeerAcknowledgement"/>).
/// </summary>
internal sealed class SocketTransport(Socket socket, bool activeOpen = false) : ConnectionTransport(socket)
{
    private readonly SocketSender _sender = new();
    private readonly ReadableWait _readable = new(socket);
    private PeerAcknowledgement _acknowledgement = new();

    public override long AcknowledgedAtAbort => _acknowledgement.AtAbort;

    public override long Acknowledged => PeerAcknowledgement.Read(Socket, activeOpen);

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        var receive = Socket.ReceiveAsync(buffer, SocketFlags.None);
        return buffer.IsEmpty && !receive.IsCompleted ? _readable.WaitAsync(receive) : receive;
    }

    public override ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(Socket, buffers);

    public override void Abort()
    {
        _acknowledgement.ReadOnce(Socket, activeOpen);
        base.Abort();
    }

    public override void Dispose()
    {
        Socket.Dispose();
        _sender.Dispose();
    }
}
