namespace Berth.Proxy;

/// <summary>The type bytes of the v2 TLVs the specification names; any other type is skipped, its bounds still checked.</summary>
public static class ProxyTlvType
{
    /// <summary>The application protocol the client negotiated (TLS ALPN), as bytes.</summary>
    public const byte Alpn = 0x01;

    /// <summary>The host name the client asked for (TLS SNI or similar), UTF-8.</summary>
    public const byte Authority = 0x02;

    /// <summary>A CRC32c checksum of the header: exactly 4 bytes.</summary>
    public const byte Crc32c = 0x03;

    /// <summary>Padding, to be ignored.</summary>
    public const byte Noop = 0x04;

    /// <summary>An opaque identifier of the client's connection, at most 128 bytes.</summary>
    public const byte UniqueId = 0x05;

    /// <summary>What the proxy knows of the client's TLS session: see <see cref="ProxySslInfo"/>.</summary>
    public const byte Ssl = 0x20;

    /// <summary>Inside <see cref="Ssl"/>: the TLS version, US-ASCII.</summary>
    public const byte SslVersion = 0x21;

    /// <summary>Inside <see cref="Ssl"/>: the client certificate's Common Name, UTF-8.</summary>
    public const byte SslCommonName = 0x22;

    /// <summary>Inside <see cref="Ssl"/>: the cipher, US-ASCII.</summary>
    public const byte SslCipher = 0x23;

    /// <summary>Inside <see cref="Ssl"/>: the certificate's signature algorithm, US-ASCII.</summary>
    public const byte SslSignatureAlgorithm = 0x24;

    /// <summary>Inside <see cref="Ssl"/>: the certificate's key algorithm, US-ASCII.</summary>
    public const byte SslKeyAlgorithm = 0x25;

    /// <summary>The network namespace the proxy accepted the connection in, US-ASCII.</summary>
    public const byte NetworkNamespace = 0x30;
}
