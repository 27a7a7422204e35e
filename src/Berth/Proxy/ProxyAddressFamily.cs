namespace Berth.Proxy;

/// <summary>The kind of addresses a PROXY-protocol header carries.</summary>
public enum ProxyAddressFamily
{
    /// <summary>No usable address: v1 <c>UNKNOWN</c>, v2 <c>AF_UNSPEC</c> or a <see cref="ProxyCommand.Local"/> header. The connection's own peer is the one to use.</summary>
    Unspecified,

    /// <summary>TCP over IPv4 (v1 <c>TCP4</c>).</summary>
    InterNetwork,

    /// <summary>TCP over IPv6 (v1 <c>TCP6</c>).</summary>
    InterNetworkV6,

    /// <summary>A Unix stream socket (v2 only); the addresses are paths.</summary>
    Unix,
}
