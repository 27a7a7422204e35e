using System.Buffers;
using System.Buffers.Binary;

namespace Berth.Proxy;

/// <summary>
/// Parses the PROXY-protocol header (HAProxy's proxy-protocol.txt, versions 1 and 2) at the start of a stream. It
/// allocates nothing: the header's views point into the parsed bytes, or into the caller's scratch buffer when the
/// header straddles segments. Bytes that are only a beginning give <see cref="ProxyParseStatus.NeedMore"/>, so a
/// header split across reads parses once complete; everything else ends in a named status.
/// </summary>
public static class ProxyHeaderParser
{
    /// <summary>The longest v1 header the specification allows, its CRLF included.</summary>
    public const int MaxVersion1Length = 107;

    /// <summary>The smallest bound <see cref="TryParse(ReadOnlySpan{byte}, int, out ProxyHeader)"/> accepts: a v2 header carrying Unix paths and no TLV.</summary>
    public const int MinMaxHeaderLength = Version2FixedLength + UnixAddressesLength;

    private const int Version2FixedLength = 16;
    private const int Ipv4AddressesLength = 12;
    private const int Ipv6AddressesLength = 36;
    private const int UnixAddressesLength = 216;
    private const int UnixPathLength = 108;

    private static ReadOnlySpan<byte> Version1Signature => "PROXY "u8;

    private static ReadOnlySpan<byte> Version2Signature => [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    /// <summary>
    /// Parses the header at the start of <paramref name="buffer"/>. When the header straddles segments its bytes are
    /// copied into <paramref name="scratch"/> (at least <paramref name="maxHeaderLength"/> bytes) and the header's
    /// views point there.
    /// </summary>
    /// <param name="buffer">The stream's first bytes.</param>
    /// <param name="maxHeaderLength">The most bytes a v2 header may take, TLVs included (at least <see cref="MinMaxHeaderLength"/>).</param>
    /// <param name="scratch">Room to gather a header split across segments.</param>
    /// <param name="header">The header, when <see cref="ProxyParseStatus.Complete"/>.</param>
    public static ProxyParseStatus TryParse(scoped in ReadOnlySequence<byte> buffer, int maxHeaderLength, Span<byte> scratch, out ProxyHeader header)
    {
        if (buffer.IsSingleSegment)
        {
            return TryParse(buffer.FirstSpan, maxHeaderLength, out header);
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(scratch.Length, maxHeaderLength);
        var gathered = scratch[..(int)Math.Min(buffer.Length, maxHeaderLength)];
        buffer.Slice(0, gathered.Length).CopyTo(gathered);
        var status = TryParse(gathered, maxHeaderLength, out header);
        return status == ProxyParseStatus.NeedMore && buffer.Length > maxHeaderLength ? ProxyParseStatus.TooLarge : status;
    }

    /// <summary>Parses the header at the start of <paramref name="data"/>; the header's views point into it.</summary>
    /// <param name="data">The stream's first bytes.</param>
    /// <param name="maxHeaderLength">The most bytes a v2 header may take, TLVs included (at least <see cref="MinMaxHeaderLength"/>).</param>
    /// <param name="header">The header, when <see cref="ProxyParseStatus.Complete"/>.</param>
    public static ProxyParseStatus TryParse(ReadOnlySpan<byte> data, int maxHeaderLength, out ProxyHeader header)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxHeaderLength, MinMaxHeaderLength);
        header = default;
        if (StartsLike(data, Version2Signature))
        {
            return data.Length < Version2FixedLength ? ProxyParseStatus.NeedMore : ParseVersion2(data, maxHeaderLength, out header);
        }

        if (StartsLike(data, Version1Signature))
        {
            return data.Length <= Version1Signature.Length ? ProxyParseStatus.NeedMore : ParseVersion1(data, out header);
        }

        return ProxyParseStatus.NotProxy;
    }

    /// <summary>True when <paramref name="data"/> begins with a whole v1 or v2 signature: it is a header, whatever follows.</summary>
    internal static bool StartsWithSignature(ReadOnlySpan<byte> data) =>
        data.StartsWith(Version1Signature) || data.StartsWith(Version2Signature);

    /// <summary>True when <paramref name="data"/> and <paramref name="signature"/> agree on their common length (empty data agrees).</summary>
    private static bool StartsLike(ReadOnlySpan<byte> data, ReadOnlySpan<byte> signature)
    {
        var common = Math.Min(data.Length, signature.Length);
        return data[..common].SequenceEqual(signature[..common]);
    }

    private static ProxyParseStatus ParseVersion1(ReadOnlySpan<byte> data, out ProxyHeader header)
    {
        header = default;
        var window = data[..Math.Min(data.Length, MaxVersion1Length)];
        var end = window.IndexOf((byte)'\n');
        var line = end < 0 ? window : window[..end];
        var unprintable = line.IndexOfAnyExceptInRange((byte)' ', (byte)'~');
        if (unprintable >= 0 && (unprintable != line.Length - 1 || line[unprintable] != (byte)'\r'))
        {
            return ProxyParseStatus.Malformed;
        }

        if (end < 0)
        {
            return data.Length >= MaxVersion1Length ? ProxyParseStatus.TooLarge : ProxyParseStatus.NeedMore;
        }

        if (line.IsEmpty || line[^1] != (byte)'\r')
        {
            return ProxyParseStatus.Malformed;
        }

        var fields = line[Version1Signature.Length..^1];
        var length = end + 1;
        if (fields.StartsWith("UNKNOWN"u8) && (fields.Length == 7 || fields[7] == (byte)' '))
        {
            header = new ProxyHeader(1, length, ProxyCommand.Proxy, ProxyAddressFamily.Unspecified);
            return ProxyParseStatus.Complete;
        }

        var family = fields.StartsWith("TCP4 "u8) ? ProxyAddressFamily.InterNetwork
            : fields.StartsWith("TCP6 "u8) ? ProxyAddressFamily.InterNetworkV6
            : ProxyAddressFamily.Unspecified;
        if (family == ProxyAddressFamily.Unspecified)
        {
            return ProxyParseStatus.Malformed;
        }

        fields = fields[5..];
        if (!TryTakeField(ref fields, out var sourceText) || !TryTakeField(ref fields, out var destinationText)
            || !TryTakeField(ref fields, out var sourcePortText) || fields.IsEmpty
            || !AsciiAddress.TryParsePort(sourcePortText, out var sourcePort) || !AsciiAddress.TryParsePort(fields, out var destinationPort)
            || !TryParseAddress(family, sourceText, out var source) || !TryParseAddress(family, destinationText, out var destination))
        {
            return ProxyParseStatus.Malformed;
        }

        header = new ProxyHeader(1, length, family, source, destination, sourcePort, destinationPort, default);
        return ProxyParseStatus.Complete;
    }

    private static bool TryTakeField(ref ReadOnlySpan<byte> fields, out ReadOnlySpan<byte> field)
    {
        var space = fields.IndexOf((byte)' ');
        field = space < 0 ? default : fields[..space];
        fields = space < 0 ? default : fields[(space + 1)..];
        return space > 0;
    }

    private static bool TryParseAddress(ProxyAddressFamily family, ReadOnlySpan<byte> text, out UInt128 address)
    {
        if (family == ProxyAddressFamily.InterNetwork)
        {
            var parsed = AsciiAddress.TryParseIPv4(text, out var v4);
            address = v4;
            return parsed;
        }

        return AsciiAddress.TryParseIPv6(text, out address);
    }

    private static ProxyParseStatus ParseVersion2(ReadOnlySpan<byte> data, int maxHeaderLength, out ProxyHeader header)
    {
        header = default;
        var versionAndCommand = data[12];
        var familyAndTransport = data[13];
        var length = Version2FixedLength + BinaryPrimitives.ReadUInt16BigEndian(data[14..]);
        if (versionAndCommand >> 4 != 2 || (versionAndCommand & 0x0F) > 1)
        {
            return ProxyParseStatus.Unsupported;
        }

        if (length > maxHeaderLength)
        {
            return ProxyParseStatus.TooLarge;
        }

        if (data.Length < length)
        {
            return ProxyParseStatus.NeedMore;
        }

        var block = data[Version2FixedLength..length];
        if ((versionAndCommand & 0x0F) == 0)
        {
            // LOCAL: the receiver discards the block, family included, and keeps the connection's own endpoints.
            header = new ProxyHeader(length, ProxyCommand.Local, default);
            return ProxyParseStatus.Complete;
        }

        var family = familyAndTransport >> 4;
        var transport = familyAndTransport & 0x0F;
        var addressesLength = family switch
        {
            0 => 0,
            1 => Ipv4AddressesLength,
            2 => Ipv6AddressesLength,
            3 => UnixAddressesLength,
            _ => -1,
        };
        if (addressesLength < 0 || (family != 0 && transport != 1) || transport > 2)
        {
            return ProxyParseStatus.Unsupported;
        }

        if (block.Length < addressesLength)
        {
            return ProxyParseStatus.Malformed;
        }

        var tlvs = block[addressesLength..];
        if (!ProxyTlvs.AreWellFormed(tlvs, insideSsl: false))
        {
            return ProxyParseStatus.Malformed;
        }

        header = family switch
        {
            0 => new ProxyHeader(length, ProxyCommand.Proxy, tlvs),
            1 => new ProxyHeader(2, length, ProxyAddressFamily.InterNetwork,
                BinaryPrimitives.ReadUInt32BigEndian(block), BinaryPrimitives.ReadUInt32BigEndian(block[4..]),
                BinaryPrimitives.ReadUInt16BigEndian(block[8..]), BinaryPrimitives.ReadUInt16BigEndian(block[10..]), tlvs),
            2 => new ProxyHeader(2, length, ProxyAddressFamily.InterNetworkV6,
                BinaryPrimitives.ReadUInt128BigEndian(block), BinaryPrimitives.ReadUInt128BigEndian(block[16..]),
                BinaryPrimitives.ReadUInt16BigEndian(block[32..]), BinaryPrimitives.ReadUInt16BigEndian(block[34..]), tlvs),
            _ => new ProxyHeader(length, UntilNul(block[..UnixPathLength]), UntilNul(block[UnixPathLength..UnixAddressesLength]), tlvs),
        };
        return ProxyParseStatus.Complete;
    }

    private static ReadOnlySpan<byte> UntilNul(ReadOnlySpan<byte> path)
    {
        var nul = path.IndexOf((byte)0);
        return nul < 0 ? path : path[..nul];
    }
}
