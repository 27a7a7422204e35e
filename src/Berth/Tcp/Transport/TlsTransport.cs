using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace Berth.Tcp.Transport;

/// <summary>
/// TLS over a socket through <see cref="SslStream"/>. SslStream has no gather write, so each buffer of a batch is
/// written in turn (it encrypts into its own buffer), then the stream is flushed once.
/// </summary>
internal sealed class TlsTransport(Socket socket, SslStream stream) : IConnectionTransport
{
    public EndPoint? LocalEndPoint { get; } = socket.LocalEndPoint;

    public EndPoint? RemoteEndPoint { get; } = socket.RemoteEndPoint;

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) => stream.ReadAsync(buffer);

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers)
    {
        var written = 0;
        for (var i = 0; i < buffers.Count; i++)
        {
            await stream.WriteAsync(buffers[i].AsMemory()).ConfigureAwait(false);
            written += buffers[i].Count;
        }

        await stream.FlushAsync().ConfigureAwait(false);
        return written;
    }

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
        stream.Dispose();
        socket.Dispose();
    }
}
