using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace Berth.Tcp.Transport;

/// <summary>
/// TLS over a socket through <see cref="SslStream"/>. SslStream has no gather write, so each buffer of a batch is
/// written in turn (it encrypts into its own buffer), then the stream is flushed once.
/// </summary>
internal sealed class TlsTransport(Socket socket, SslStream stream) : ConnectionTransport(socket)
{
    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => stream.ReadAsync(buffer);

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public override async ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers)
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

    public override void Dispose()
    {
        stream.Dispose();
        Socket.Dispose();
    }
}
