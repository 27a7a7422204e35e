namespace Berth.Proxy;

/// <summary>What a server expects at the start of a connection from a trusted proxy.</summary>
public enum ProxyHeaderPolicy
{
    /// <summary>Every connection from a trusted proxy begins with a header; one that does not is closed (<c>ProxyHeaderMissing</c>).</summary>
    Required,

    /// <summary>
    /// A connection from a trusted proxy may begin with a header or with its first frame; for moving a listener behind
    /// a proxy without a flag day. A header is recognised by its signature, which no valid frame length begins with.
    /// </summary>
    Optional,
}
