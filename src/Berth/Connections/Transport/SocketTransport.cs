using System.Net.Sockets;
using Berth.Connections.Send;

namespace Berth.Connections.Transport;

/// <summary>
/// A plain socket on the runtime's socket engine: receives with the socket's cached awaitable, sends with one gather
/// call per batch. What Windows and macOS run, and Linux under <see cref="HandlerScheduling.ThreadPool"/>.
/// </summary>
internal sealed class SocketTransport(Socket socket, bool activeOpen = false) : ConnectionTransport(socket, activeOpen)
{
    private readonly SocketSender _sender = new();
    private readonly ReadableWait _readable = new(socket);

    /// <summary>
    /// The runtime builds sendmsg's iovec array on the stack for up to 8 buffers and allocates it beyond that,
    /// so larger batches go out in several sends.
    /// </summary>
    public override int MaxBuffersPerSend => 8;

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
