using Berth.Zmq;

namespace Berth.Zmq.Tests;

/// <summary>Binds to ephemeral loopback ports and guards tests against hanging forever.</summary>
internal static class Endpoints
{
    public static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    /// <summary>Binds <paramref name="socket"/> to a free loopback port and returns the resolved endpoint.</summary>
    public static string BindLoopback(this ZmqSocket socket)
    {
        socket.Bind("tcp://127.0.0.1:*");
        return socket.LastEndpoint;
    }

    /// <summary>Makes blocking calls fail after <see cref="Patience"/> instead of hanging the test run.</summary>
    public static ZmqSocket WithTimeouts(this ZmqSocket socket)
    {
        socket.ReceiveTimeout = Patience;
        socket.SendTimeout = Patience;
        socket.Linger = TimeSpan.Zero;
        return socket;
    }

    public static ZmqSocket Create(this ZmqContext context, ZmqSocketType type) => context.CreateSocket(type).WithTimeouts();
}
