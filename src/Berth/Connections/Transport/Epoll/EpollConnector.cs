using System.Net;
using System.Net.Sockets;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// Connects a client's plain socket so that only an <see cref="EpollLoop"/> ever watches it. The runtime's
/// <c>ConnectAsync</c> registers the descriptor with the runtime's own socket engine, whose thread would then wake on
/// every edge of the connection as well; here the connect is a non-blocking call, and the loop's writable event ends it.
/// </summary>
internal static class EpollConnector
{
    /// <summary>
    /// Connects to <paramref name="options"/>' Unix socket path, or to each address of its host in turn until one accepts.
    /// Null when the loop cannot take the socket (epoll refused it, or a Unix socket's accept queue is full, which a
    /// non-blocking connect cannot wait for): the caller then connects on the runtime's engine.
    /// </summary>
    /// <exception cref="SocketException">The host could not be resolved or refused the connection.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> fired first.</exception>
    public static async Task<ConnectionTransport?> ConnectAsync(BerthClientOptions options, CancellationToken cancellationToken)
    {
        if (options.UnixSocketPath is { } path)
        {
            return await ConnectAsync(new UnixDomainSocketEndPoint(path), options, cancellationToken).ConfigureAwait(false);
        }

        var addresses = IPAddress.TryParse(options.Host, out var literal)
            ? [literal]
            : await Dns.GetHostAddressesAsync(options.Host, cancellationToken).ConfigureAwait(false);
        if (addresses.Length == 0)
        {
            throw new SocketException((int)SocketError.HostNotFound);
        }

        for (var i = 0; ; i++)
        {
            try
            {
                return await ConnectAsync(new IPEndPoint(addresses[i], options.Port), options, cancellationToken).ConfigureAwait(false);
            }
            catch (SocketException) when (i < addresses.Length - 1)
            {
                // The next address may accept; only the last one's error is the caller's.
            }
        }
    }

    private static async Task<ConnectionTransport?> ConnectAsync(EndPoint endPoint, BerthClientOptions options, CancellationToken cancellationToken)
    {
        // Dual-mode, as the runtime's own connect by host name makes it, so IPv4 and IPv6 addresses both fit.
        var socket = endPoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(SocketType.Stream, ProtocolType.Tcp);
        EpollTransport? transport = null;
        try
        {
            socket.Blocking = false;
            var underWay = false;
            try
            {
                socket.Connect(endPoint);
            }
            catch (SocketException e) when (e.SocketErrorCode is SocketError.WouldBlock or SocketError.InProgress)
            {
                underWay = true;
            }

            if (underWay && socket.AddressFamily == AddressFamily.Unix)
            {
                // EAGAIN on a Unix socket means its accept queue is full, not a connect under way.
                socket.Dispose();
                return null;
            }

            options.ApplyTo(socket);
            try
            {
                transport = new EpollTransport(socket, EpollLoopGroup.Next(), activeOpen: true, connecting: underWay);
            }
            catch (Exception e) when (e is SocketException or TypeInitializationException)
            {
                // As in PlainTransport.For: epoll refused the loops or the descriptor.
                socket.Dispose();
                return null;
            }

            if (underWay)
            {
                await transport.ConnectedAsync(cancellationToken).ConfigureAwait(false);
            }

            // The transport passes its own non-blocking flag on each call; the socket keeps the runtime's default mode.
            socket.Blocking = true;
            return transport;
        }
        catch
        {
            if (transport is null)
            {
                socket.Dispose();
            }
            else
            {
                transport.Dispose();
            }

            throw;
        }
    }
}
