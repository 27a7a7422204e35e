using System.Net.Security;

namespace Berth.Connections;

/// <summary>
/// Settings of a <see cref="BerthClient"/>. Clients made from one options object share its
/// <see cref="ConnectionOptions.BufferPool"/> and one timer for the idle, frame and slow-consumer timeouts, so many
/// client connections are best made from one options object.
/// </summary>
public sealed class BerthClientOptions : ConnectionOptions
{
    /// <summary>Host name or address to connect to. Default 127.0.0.1.</summary>
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>Port to connect to.</summary>
    public int Port { get; set; }

    /// <summary>Longest a connect attempt (name lookup included) may take. Default 10 s.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Reconnect after the connection is lost for any reason but <see cref="BerthClient.DisposeAsync"/> or <see cref="Connection.Close()"/>. Default false.</summary>
    public bool Reconnect { get; set; }

    /// <summary>
    /// The window the first reconnect attempt waits within: a uniformly random time in it, widened to 0.1 ms per client
    /// made from these options (1 s for 10,000), so clients cut off together come back spread out rather than at once.
    /// The window doubles after each failed attempt, up to <see cref="ReconnectMaxDelay"/>. Default 100 ms.
    /// </summary>
    public TimeSpan ReconnectInitialDelay { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>The widest a reconnect window grows by doubling (a window widened for many clients may start wider). Default 10 s.</summary>
    public TimeSpan ReconnectMaxDelay { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>When set, the client connects to this Unix domain socket path; <see cref="Host"/> and <see cref="Port"/> are not used.</summary>
    public string? UnixSocketPath { get; set; }

    /// <summary>When set, the client speaks TLS with these settings.</summary>
    public SslClientAuthenticationOptions? Tls { get; set; }

    /// <summary>Sees each reconnect delay as it is drawn, with the window it was drawn from: the spread is testable without timing.</summary>
    internal Action<TimeSpan, TimeSpan>? ReconnectScheduled { get; set; }

    /// <summary>The timeout sweeper the clients made from these options share.</summary>
    internal ClientTimeouts Timeouts { get; } = new();

    internal void ValidateClient()
    {
        Validate();
        if (UnixSocketPath is not null)
        {
            ArgumentException.ThrowIfNullOrWhiteSpace(UnixSocketPath);
        }
        else
        {
            ArgumentException.ThrowIfNullOrWhiteSpace(Host);
            ArgumentOutOfRangeException.ThrowIfLessThan(Port, 1);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(Port, 65535);
        }

        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ConnectTimeout, TimeSpan.Zero);
    }
}
