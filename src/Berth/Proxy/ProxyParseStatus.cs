namespace Berth.Proxy;

/// <summary>What <see cref="ProxyHeaderParser"/> found at the start of a stream.</summary>
public enum ProxyParseStatus
{
    /// <summary>A whole, valid header; <see cref="ProxyHeader.Length"/> bytes of the stream are the header.</summary>
    Complete,

    /// <summary>The bytes so far are the beginning of a header within its size bound: read more and parse again.</summary>
    NeedMore,

    /// <summary>The stream does not begin with a PROXY-protocol header (neither the v1 nor the v2 signature).</summary>
    NotProxy,

    /// <summary>The header breaks the specification: bad syntax, an address or port out of range, a TLV overrunning the header.</summary>
    Malformed,

    /// <summary>The header is, or announces, more bytes than the bound (107 for v1, the configured maximum for v2).</summary>
    TooLarge,

    /// <summary>A well-formed v2 header this server cannot use: another version or command, or a datagram or unknown address family.</summary>
    Unsupported,
}
