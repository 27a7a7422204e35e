namespace Berth.Proxy;

/// <summary>What a PROXY-protocol header says about the connection it precedes.</summary>
public enum ProxyCommand
{
    /// <summary>The proxy relays a client: the header's addresses are the original client's and the proxy's.</summary>
    Proxy,

    /// <summary>
    /// v2 only: the proxy opened the connection on its own behalf (a health check); the header carries no client, and
    /// the connection's own peer is the one to use.
    /// </summary>
    Local,
}
