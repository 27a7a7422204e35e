using System.Buffers.Binary;

namespace Berth.Proxy;

/// <summary>
/// The v2 SSL TLV: what the proxy knows of the client's TLS session. A view over the header's bytes, valid only as
/// long as the <see cref="ProxyHeader"/> it came from.
/// </summary>
public readonly ref struct ProxySslInfo
{
    internal const int FixedLength = 5;
    internal const int MaxUniqueIdLength = 128;

    private readonly ReadOnlySpan<byte> _value;

    internal ProxySslInfo(ReadOnlySpan<byte> value)
    {
        _value = value;
    }

    /// <summary>True when the header carried an SSL TLV.</summary>
    public bool IsPresent => !_value.IsEmpty;

    /// <summary>How the client used TLS.</summary>
    public ProxySslClientFlags ClientFlags => IsPresent ? (ProxySslClientFlags)_value[0] : ProxySslClientFlags.None;

    /// <summary>The proxy's verification of the client certificate: 0 when it verified, otherwise its error code.</summary>
    public uint VerifyResult => IsPresent ? BinaryPrimitives.ReadUInt32BigEndian(_value[1..]) : uint.MaxValue;

    /// <summary>The TLS version (US-ASCII, e.g. <c>TLSv1.3</c>); empty when not sent.</summary>
    public ReadOnlySpan<byte> Version => SubTlv(ProxyTlvType.SslVersion);

    /// <summary>The client certificate's Common Name (UTF-8); empty when not sent.</summary>
    public ReadOnlySpan<byte> CommonName => SubTlv(ProxyTlvType.SslCommonName);

    /// <summary>The cipher (US-ASCII); empty when not sent.</summary>
    public ReadOnlySpan<byte> Cipher => SubTlv(ProxyTlvType.SslCipher);

    /// <summary>The value of the first sub-TLV of <paramref name="type"/>.</summary>
    public bool TryGetSubTlv(byte type, out ReadOnlySpan<byte> value)
    {
        if (!IsPresent)
        {
            value = default;
            return false;
        }

        return ProxyTlvs.TryFind(_value[FixedLength..], type, out value);
    }

    private ReadOnlySpan<byte> SubTlv(byte type) => TryGetSubTlv(type, out var value) ? value : default;
}
