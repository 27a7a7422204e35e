using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace Berth.Connections.Transport;

/// <summary>
/// TLS over a socket through <see cref="SslStream"/>, and the one place either side's handshake is set up. SslStream
/// has no gather write, so each buffer of a batch is written in turn (it encrypts into its own buffer), then the
/// stream is flushed once.
/// </summary>
internal sealed class TlsTransport : ConnectionTransport
{
    private readonly SslStream _stream;

    private TlsTransport(Socket socket, bool activeOpen)
        : base(socket, activeOpen)
    {
        _stream = new SslStream(new NetworkStream(socket, ownsSocket: false));
    }

    /// <summary>A batch is written buffer by buffer anyway; it is split only so it is flushed as often as before.</summary>
    public override int MaxBuffersPerSend => 8;

    protected override bool CountsAcknowledgedBytes => false;

    /// <summary>
    /// Runs the server side of the handshake on an accepted <paramref name="socket"/>. The transport is returned even
    /// when the handshake failed (with the error), so the refused connection is reported and closed like
    /// any other.
    /// </summary>
    public static async Task<(TlsTransport Transport, Exception? Error)> AcceptAsync(
        Socket socket, SslServerAuthenticationOptions options, CancellationToken cancellationToken)
    {
        var transport = new TlsTransport(socket, activeOpen: false);
        try
        {
            await transport._stream.AuthenticateAsServerAsync(options, cancellationToken).ConfigureAwait(false);
            return (transport, null);
        }
        catch (Exception e)
        {
            return (transport, e);
        }
    }

    /// <summary>Runs the client side of the handshake on a connected <paramref name="socket"/>; a failure disposes both.</summary>
    public static async Task<TlsTransport> ConnectAsync(
        Socket socket, SslClientAuthenticationOptions options, CancellationToken cancellationToken)
    {
        var transport = new TlsTransport(socket, activeOpen: true);
        try
        {
            await transport._stream.AuthenticateAsClientAsync(options, cancellationToken).ConfigureAwait(false);
            return transport;
        }
        catch
        {
            transport.Dispose();
            throw;
        }
    }

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => _stream.ReadAsync(buffer);

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public override async ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers)
    {
        var written = 0;
        for (var i = 0; i < buffers.Count; i++)
        {
            await _stream.WriteAsync(buffers[i].AsMemory()).ConfigureAwait(false);
            written += buffers[i].Count;
        }

        await _stream.FlushAsync().ConfigureAwait(false);
        return written;
    }

    public override void Dispose()
    {
        _stream.Dispose();
        Socket.Dispose();
    }
}
