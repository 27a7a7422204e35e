using System.Net;
using System.Net.Security;
using Berth.Proxy;

namespace Berth.Connections;

/// <summary>Settings of a <see cref="BerthServer"/>.</summary>
public sealed class BerthServerOptions : ConnectionOptions
{
    /// <summary>Where to listen. Default: 127.0.0.1 on a port the system picks.</summary>
    public IPEndPoint EndPoint { get; set; } = new(IPAddress.Loopback, 0);

    /// <summary>
    /// When set, the server listens on this Unix domain socket path instead of <see cref="EndPoint"/>, with the same
    /// framing, limits, timeouts and backpressure. A stale socket file is replaced at start; a path that is not a
    /// socket, or a socket another process listens on, is left alone and <see cref="BerthServer.Start"/> throws. The
    /// file is removed on stop.
    /// </summary>
    public string? UnixSocketPath { get; set; }

    /// <summary>The socket file's permissions, set right after the bind. Default read and write for the owner and the group (0660).</summary>
    public UnixFileMode UnixSocketMode { get; set; } = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead | UnixFileMode.GroupWrite;

    /// <summary>Most connections open at once. Default 10,000.</summary>
    public int MaxConnections { get; set; } = 10_000;

    /// <summary>What happens to a connection past <see cref="MaxConnections"/>. Default <see cref="ConnectionLimitPolicy.CloseNewest"/>.</summary>
    public ConnectionLimitPolicy ConnectionLimitPolicy { get; set; } = ConnectionLimitPolicy.CloseNewest;

    /// <summary>Accepts kept outstanding at once, so a burst of connections is taken in parallel. Default 4.</summary>
    public int ConcurrentAccepts { get; set; } = 4;

    /// <summary>Length of the kernel's queue of connections not yet accepted. Default 1,024.</summary>
    public int Backlog { get; set; } = 1024;

    /// <summary>How long <see cref="BerthServer.StopAsync"/> lets connections reach a frame boundary and flush their queues before closing them hard. Default 5 s.</summary>
    public TimeSpan ShutdownTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>When set, every connection speaks TLS with these settings.</summary>
    public SslServerAuthenticationOptions? Tls { get; set; }

    /// <summary>Longest a TLS handshake may take. Default 10 s.</summary>
    public TimeSpan TlsHandshakeTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// When set, connections from trusted proxies begin with a PROXY-protocol header (v1 or v2), read before TLS and
    /// before the first frame, and the original client it names becomes <see cref="Connection.RemoteEndPoint"/>.
    /// Connections still in the header stage count toward <see cref="MaxConnections"/>.
    /// </summary>
    public ProxyProtocolOptions? ProxyProtocol { get; set; }

    internal void ValidateServer()
    {
        Validate();
        ProxyProtocol?.Validate();
        ArgumentNullException.ThrowIfNull(EndPoint);
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxConnections, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(ConcurrentAccepts, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(Backlog, 1);
    }
}
