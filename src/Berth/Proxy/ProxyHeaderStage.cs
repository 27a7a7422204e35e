using System.Buffers;
using System.Net;
using System.Net.Sockets;
using Berth.Connections;
using Berth.Connections.Transport;

namespace Berth.Proxy;

/// <summary>
/// The pre-framing stage that reads a PROXY-protocol header off an accepted socket, in the clear and before TLS, and
/// returns the original client's address. It reads exactly the header's bytes: it peeks at what has arrived, parses
/// it, and takes off the socket only bytes known to be the header's, so what follows is left for TLS or framing. A
/// connection from an untrusted address is served as it is unless it begins with a header. Every refusal is a
/// <see cref="ProxyHeaderRefusedException"/> with its reason.
/// </summary>
internal sealed class ProxyHeaderStage : IPreFramingStage
{
    private readonly ProxyProtocolOptions _options;
    private readonly ProxyAllowlist _allowlist;

    public ProxyHeaderStage(ProxyProtocolOptions options)
    {
        _options = options;
        _allowlist = options.CreateAllowlist();
    }

    public async ValueTask<EndPoint?> RunAsync(Socket socket, EndPoint? remoteEndPoint, CancellationToken cancellationToken)
    {
        var trusted = _allowlist.Contains((remoteEndPoint as IPEndPoint)?.Address);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(_options.HeaderTimeout);
        var buffer = ArrayPool<byte>.Shared.Rent(_options.MaxHeaderLength);
        try
        {
            return await ReadAsync(socket, remoteEndPoint, trusted, buffer, deadline.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new ProxyHeaderRefusedException(DisconnectReason.ProxyHeaderTimeout);
        }
        catch (SocketException e)
        {
            throw new ProxyHeaderRefusedException(DisconnectReason.SocketError, e);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private async ValueTask<EndPoint?> ReadAsync(Socket socket, EndPoint? remoteEndPoint, bool trusted, byte[] buffer, CancellationToken deadline)
    {
        var max = _options.MaxHeaderLength;
        var taken = 0;
        while (true)
        {
            var arrived = await socket.ReceiveAsync(buffer.AsMemory(taken, max - taken), SocketFlags.Peek, deadline).ConfigureAwait(false);
            if (arrived == 0)
            {
                throw new ProxyHeaderRefusedException(DisconnectReason.ClosedByPeer);
            }

            var seen = taken + arrived;
            var status = ProxyHeaderParser.TryParse(buffer.AsSpan(0, seen), max, out var header);
            if (status == ProxyParseStatus.NotProxy)
            {
                if (taken > 0)
                {
                    // Bytes already taken as the start of a signature cannot be handed back to the framing.
                    throw new ProxyHeaderRefusedException(DisconnectReason.ProxyHeaderMalformed);
                }

                return trusted && _options.Policy == ProxyHeaderPolicy.Required
                    ? throw new ProxyHeaderRefusedException(DisconnectReason.ProxyHeaderMissing)
                    : remoteEndPoint;
            }

            if (!trusted && (status != ProxyParseStatus.NeedMore || ProxyHeaderParser.StartsWithSignature(buffer.AsSpan(0, seen))))
            {
                throw new ProxyHeaderRefusedException(DisconnectReason.ProxyHeaderUntrusted);
            }

            switch (status)
            {
                case ProxyParseStatus.NeedMore:
                    taken += await TakeAsync(socket, buffer.AsMemory(taken, arrived), deadline).ConfigureAwait(false);
                    continue;
                case ProxyParseStatus.Complete:
                    return await AdmitAsync(socket, remoteEndPoint, buffer, taken, header.Length, deadline).ConfigureAwait(false);
                default:
                    throw new ProxyHeaderRefusedException(status switch
                    {
                        ProxyParseStatus.TooLarge => DisconnectReason.ProxyHeaderTooLarge,
                        ProxyParseStatus.Unsupported => DisconnectReason.ProxyHeaderUnsupported,
                        _ => DisconnectReason.ProxyHeaderMalformed,
                    });
            }
        }
    }

    /// <summary>Takes the rest of a complete header off the socket, then parses it again from the bytes taken.</summary>
    private async ValueTask<EndPoint?> AdmitAsync(Socket socket, EndPoint? remoteEndPoint, byte[] buffer, int taken, int length, CancellationToken deadline)
    {
        while (taken < length)
        {
            taken += await TakeAsync(socket, buffer.AsMemory(taken, length - taken), deadline).ConfigureAwait(false);
        }

        return Resolve(remoteEndPoint, buffer.AsSpan(0, length));
    }

    private EndPoint? Resolve(EndPoint? remoteEndPoint, ReadOnlySpan<byte> bytes)
    {
        ProxyHeaderParser.TryParse(bytes, _options.MaxHeaderLength, out var header);
        if (_options.OnHeader is { } onHeader && !onHeader(remoteEndPoint, header))
        {
            throw new ProxyHeaderRefusedException(DisconnectReason.ProxyHeaderRejected);
        }

        // LOCAL (the proxy's own health check) and unspecified addresses keep the connection's own peer.
        return header.CreateSourceEndPoint() ?? remoteEndPoint;
    }

    private static async ValueTask<int> TakeAsync(Socket socket, Memory<byte> into, CancellationToken deadline)
    {
        var taken = await socket.ReceiveAsync(into, SocketFlags.None, deadline).ConfigureAwait(false);
        return taken > 0 ? taken : throw new ProxyHeaderRefusedException(DisconnectReason.ClosedByPeer);
    }
}
