using System.Net.Sockets;
using System.Runtime.CompilerServices;
using Berth.Tcp.Send;

namespace Berth.Tcp.Transport;

/// <summary>A plain TCP socket: receives with the socket's cached awaitable, sends with one gather call per batch.</summary>
internal sealed class SocketTransport(Socket socket) : ConnectionTransport(socket)
{
    private readonly SocketSender _sender = new();

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        var receive = Socket.ReceiveAsync(buffer, SocketFlags.None);
        return buffer.IsEmpty && !receive.IsCompleted ? UntilReadableAsync(receive) : receive;
    }

    public override ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(Socket, buffers);

    public override void Dispose()
    {
        Socket.Dispose();
        _sender.Dispose();
    }

    /// <summary>
    /// A zero-byte receive that went asynchronous can complete on a readiness event for bytes a previous receive
    /// already took, with nothing left to read (seen on Linux under load); the caller would then rent a buffer and
    /// hold it in a pending receive. So it waits again until a poll sees data or the end of the stream.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<int> UntilReadableAsync(ValueTask<int> receive)
    {
        await receive.ConfigureAwait(false);
        while (!Socket.Poll(0, SelectMode.SelectRead))
        {
            await Socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None).ConfigureAwait(false);
        }

        return 0;
    }
}
