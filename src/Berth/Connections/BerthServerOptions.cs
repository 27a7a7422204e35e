using System.Net;
using System.Net.Security;

namespace Berth.Connections;

/// <summary>Settings of a <see cref="BerthServer"/>.</summary>
public sealed class BerthServerOptions : ConnectionOptions
{
    /// <summary>Where to listen. Default: 127.0.0.1 on a port the system picks.</summary>
    public IPEndPoint EndPoint { get; set; } = new(IPAddress.Loopback, 0);

    /// <summary>Most connections open at once. Default 10,000.</summary>
    public int MaxConnections { get; set; } = 10_000;

    /// <summary>What happens to a connection past <see cref="MaxConnections"/>. Default <see cref="ConnectionLimitPolicy.CloseNewest"/>.</summary>
    public ConnectionLimitPolicy ConnectionLimitPolicy { get; set; } = ConnectionLimitPolicy.CloseNewest;

    /// <summary>Accepts kept outstanding at once, so a burst of connections is taken in parallel. Default 4.</summary>
    public int ConcurrentAccepts { get; set; } = 4;

    /// <summary>Length of the kernel's queue of connections not yet accepted. Default 1,024.</summary>
    public int Backlog { get; set; } = 1024;

    /// <summary>How long <see cref="BerthServer.StopAsync"/> lets connections flush their queues before closing them hard. Default 5 s.</summary>
    public TimeSpan ShutdownTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>When set, every connection speaks TLS with these settings.</summary>
    public SslServerAuthenticationOptions? Tls { get; set; }

    /// <summary>Longest a TLS handshake may take. Default 10 s.</summary>
    public TimeSpan TlsHandshakeTimeout { get; set; } = TimeSpan.FromSeconds(10);

    internal void ValidateServer()
    {
        Validate();
        ArgumentNullException.ThrowIfNull(EndPoint);
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxConnections, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(ConcurrentAccepts, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(Backlog, 1);
    }
}
