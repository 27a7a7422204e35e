using System.Net.Sockets;
using Berth.Connections.Transport.Epoll;

namespace Berth.Connections.Transport;

/// <summary>Picks the transport for a plain TCP socket from <see cref="ConnectionOptions.HandlerScheduling"/>.</summary>
internal static class PlainTransport
{
    /// <param name="socket">The connected socket.</param>
    /// <param name="options">The connection's options.</param>
    /// <param name="activeOpen">This side connected, rather than accepted.</param>
    public static ConnectionTransport For(Socket socket, ConnectionOptions options, bool activeOpen)
    {
        if (RunsOnEpoll(options))
        {
            try
            {
                return new EpollTransport(socket, EpollLoopGroup.Next(), activeOpen);
            }
            catch (Exception e) when (e is SocketException or TypeInitializationException)
            {
                // epoll refused the loops or the descriptor (out of descriptors or kernel memory): this socket is
                // served by the runtime's engine instead.
            }
        }

        return new SocketTransport(socket, activeOpen);
    }

    /// <summary>True when plain sockets under <paramref name="options"/> are meant for Berth's epoll loops.</summary>
    public static bool RunsOnEpoll(ConnectionOptions options) =>
        options.HandlerScheduling == HandlerScheduling.Inline && OperatingSystem.IsLinux();
}
