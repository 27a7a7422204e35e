namespace Berth.Proxy;

/// <summary>The <c>client</c> bits of the v2 SSL TLV.</summary>
[Flags]
public enum ProxySslClientFlags : byte
{
    /// <summary>No bit set: the client did not use TLS.</summary>
    None = 0,

    /// <summary>The client connected over TLS.</summary>
    Ssl = 0x01,

    /// <summary>The client presented a certificate over this connection.</summary>
    CertificateOnConnection = 0x02,

    /// <summary>The client presented a certificate at least once over this TLS session.</summary>
    CertificateOnSession = 0x04,
}
