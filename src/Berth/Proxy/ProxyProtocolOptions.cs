using System.Net;

namespace Berth.Proxy;

/// <summary>
/// The PROXY protocol (v1 and v2) on a server's listener: connections from trusted proxies begin with a header naming
/// the original client, which becomes the connection's remote endpoint. The header is read before TLS and before the
/// first frame, within its own deadline.
/// </summary>
public sealed class ProxyProtocolOptions
{
    /// <summary>Whether a trusted proxy must send the header. Default <see cref="ProxyHeaderPolicy.Required"/>.</summary>
    public ProxyHeaderPolicy Policy { get; set; } = ProxyHeaderPolicy.Required;

    /// <summary>
    /// The addresses allowed to send a header (e.g. <c>IPNetwork.Parse("10.0.0.0/8")</c>). A connection from any
    /// other address that begins with a header is closed (<c>ProxyHeaderUntrusted</c>); one that begins with its
    /// first frame is served as a direct client. Empty is refused unless <see cref="TrustEveryAddress"/> is set.
    /// </summary>
    public IList<IPNetwork> TrustedProxies { get; } = [];

    /// <summary>
    /// Unsafe: trusts a header from any address, so any client that reaches the port can claim any source address
    /// and defeat whatever rate limits, bans and logs rely on it. Only for a port that nothing but the proxy can
    /// reach (a firewall or a private network guarantees it, not Berth). Default false.
    /// </summary>
    public bool TrustEveryAddress { get; set; }

    /// <summary>
    /// Longest a connection may take to send its header (or, from an untrusted address, its first bytes), counted
    /// from the accept and independent of the frame deadline. Default 5 s.
    /// </summary>
    public TimeSpan HeaderTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Most bytes a v2 header may take, TLVs included; a v1 header is always at most 107. Default 1,024.</summary>
    public int MaxHeaderLength { get; set; } = 1024;

    /// <summary>When set, sees every parsed header and may refuse its connection.</summary>
    public ProxyHeaderCallback? OnHeader { get; set; }

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxHeaderLength, ProxyHeaderParser.MinMaxHeaderLength);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(MaxHeaderLength, ushort.MaxValue + 16);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(HeaderTimeout, TimeSpan.Zero);
        if (TrustedProxies.Count == 0 && !TrustEveryAddress)
        {
            throw new ArgumentException(
                "The PROXY protocol needs trusted proxy addresses (TrustedProxies), or the explicit, unsafe TrustEveryAddress.",
                nameof(TrustedProxies));
        }
    }

    internal ProxyAllowlist CreateAllowlist() => TrustEveryAddress ? ProxyAllowlist.Everyone : ProxyAllowlist.Of(TrustedProxies);
}
