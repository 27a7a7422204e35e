namespace Berth.Proxy;

/// <summary>
/// Parses the textual IPv4 and IPv6 addresses and ports of a v1 header from ASCII bytes into numbers, without making
/// an <see cref="System.Net.IPAddress"/>: the header is checked before anything is allocated for it.
/// </summary>
internal static class AsciiAddress
{
    private const int Ipv6Groups = 8;

    /// <summary>Dotted decimal, four octets, no leading zeros (which some parsers read as octal).</summary>
    public static bool TryParseIPv4(ReadOnlySpan<byte> text, out uint address)
    {
        address = 0;
        for (var octet = 0; octet < 4; octet++)
        {
            if (octet > 0)
            {
                if (text.IsEmpty || text[0] != (byte)'.')
                {
                    return false;
                }

                text = text[1..];
            }

            if (!TryTakeDecimal(ref text, maxDigits: 3, out var value) || value > 255)
            {
                return false;
            }

            address = (address << 8) | (uint)value;
        }

        return text.IsEmpty;
    }

    /// <summary>RFC 4291 text: eight hex groups, one <c>::</c> for a run of zeros, an optional dotted IPv4 tail; no zone.</summary>
    public static bool TryParseIPv6(ReadOnlySpan<byte> text, out UInt128 address)
    {
        address = 0;
        Span<ushort> groups = stackalloc ushort[Ipv6Groups];
        var count = 0;
        var gapAt = -1;
        if (text.StartsWith("::"u8))
        {
            gapAt = 0;
            text = text[2..];
        }

        while (!text.IsEmpty)
        {
            if (count == Ipv6Groups)
            {
                return false;
            }

            if (text.IndexOf((byte)':') < 0 && text.IndexOf((byte)'.') >= 0)
            {
                if (count > Ipv6Groups - 2 || !TryParseIPv4(text, out var tail))
                {
                    return false;
                }

                groups[count++] = (ushort)(tail >> 16);
                groups[count++] = (ushort)tail;
                break;
            }

            if (!TryTakeHexGroup(ref text, out groups[count]))
            {
                return false;
            }

            count++;
            if (text.IsEmpty)
            {
                break;
            }

            if (text[0] != (byte)':')
            {
                return false;
            }

            if (text.Length > 1 && text[1] == (byte)':')
            {
                if (gapAt >= 0)
                {
                    return false;
                }

                gapAt = count;
                text = text[2..];
            }
            else
            {
                text = text[1..];
                if (text.IsEmpty)
                {
                    return false;
                }
            }
        }

        if (gapAt < 0 ? count != Ipv6Groups : count == Ipv6Groups)
        {
            return false;
        }

        var zeros = Ipv6Groups - count;
        for (var i = 0; i < count; i++)
        {
            var position = i < gapAt || gapAt < 0 ? i : i + zeros;
            address |= (UInt128)groups[i] << (16 * (Ipv6Groups - 1 - position));
        }

        return true;
    }

    /// <summary>A decimal port, 0 to 65535, no leading zeros.</summary>
    public static bool TryParsePort(ReadOnlySpan<byte> text, out int port) =>
        TryTakeDecimal(ref text, maxDigits: 5, out port) && text.IsEmpty && port <= ushort.MaxValue;

    private static bool TryTakeDecimal(ref ReadOnlySpan<byte> text, int maxDigits, out int value)
    {
        value = 0;
        var digits = 0;
        while (digits < text.Length && char.IsAsciiDigit((char)text[digits]))
        {
            if (digits == maxDigits || (digits == 1 && text[0] == (byte)'0'))
            {
                return false;
            }

            value = (value * 10) + (text[digits] - '0');
            digits++;
        }

        text = text[digits..];
        return digits > 0;
    }

    private static bool TryTakeHexGroup(ref ReadOnlySpan<byte> text, out ushort group)
    {
        var value = 0;
        var digits = 0;
        while (digits < text.Length && char.IsAsciiHexDigit((char)text[digits]))
        {
            if (digits == 4)
            {
                group = 0;
                return false;
            }

            value = (value << 4) | HexValue(text[digits]);
            digits++;
        }

        group = (ushort)value;
        text = text[digits..];
        return digits > 0;
    }

    private static int HexValue(byte c) => c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}
