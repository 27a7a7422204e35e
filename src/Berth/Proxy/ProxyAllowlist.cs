using System.Buffers.Binary;
using System.Net;

namespace Berth.Proxy;

/// <summary>
/// The addresses trusted to send a PROXY-protocol header, as CIDR ranges (IPv4 and IPv6). Matching allocates nothing,
/// and an IPv4 peer on a dual-stack socket (<c>::ffff:a.b.c.d</c>) matches the IPv4 ranges.
/// </summary>
internal sealed class ProxyAllowlist
{
    private readonly CidrRange[] _ranges;
    private readonly bool _everyAddress;

    private ProxyAllowlist(CidrRange[] ranges, bool everyAddress)
    {
        _ranges = ranges;
        _everyAddress = everyAddress;
    }

    /// <summary>Trusts every address: the explicit, unsafe choice of <see cref="ProxyProtocolOptions.TrustEveryAddress"/>.</summary>
    public static ProxyAllowlist Everyone { get; } = new([], everyAddress: true);

    /// <summary>Trusts the given ranges only.</summary>
    public static ProxyAllowlist Of(IEnumerable<IPNetwork> networks) => new([.. networks.Select(CidrRange.From)], everyAddress: false);

    /// <summary>True when <paramref name="address"/> lies in one of the ranges.</summary>
    public bool Contains(IPAddress? address)
    {
        if (_everyAddress)
        {
            return true;
        }

        Span<byte> bytes = stackalloc byte[16];
        if (address is null || !address.TryWriteBytes(bytes, out var written))
        {
            return false;
        }

        var isIPv4 = written == 4 || IsIPv4Mapped(bytes);
        var value = written == 4 ? BinaryPrimitives.ReadUInt32BigEndian(bytes)
            : isIPv4 ? BinaryPrimitives.ReadUInt32BigEndian(bytes[12..])
            : BinaryPrimitives.ReadUInt128BigEndian(bytes);
        foreach (var range in _ranges)
        {
            if (range.Contains(value, isIPv4))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsIPv4Mapped(ReadOnlySpan<byte> v6) =>
        v6[..10].IndexOfAnyExcept((byte)0) < 0 && v6[10] == 0xFF && v6[11] == 0xFF;

    /// <summary>One range: its base address as a number (IPv4 in the low 32 bits) and the mask of its prefix.</summary>
    private readonly record struct CidrRange(UInt128 Prefix, UInt128 Mask, bool IsIPv4)
    {
        public static CidrRange From(IPNetwork network)
        {
            Span<byte> bytes = stackalloc byte[16];
            network.BaseAddress.TryWriteBytes(bytes, out var written);
            var bits = written * 8;
            var all = bits == 32 ? uint.MaxValue : UInt128.MaxValue;
            var mask = network.PrefixLength == 0 ? UInt128.Zero : all & (all << (bits - network.PrefixLength));
            var prefix = written == 4 ? BinaryPrimitives.ReadUInt32BigEndian(bytes) : BinaryPrimitives.ReadUInt128BigEndian(bytes);
            return new CidrRange(prefix & mask, mask, written == 4);
        }

        public bool Contains(UInt128 address, bool isIPv4) => isIPv4 == IsIPv4 && (address & Mask) == Prefix;
    }
}
