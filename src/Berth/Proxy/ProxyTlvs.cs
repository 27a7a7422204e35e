using System.Buffers.Binary;

namespace Berth.Proxy;

/// <summary>Walks a run of v2 TLVs (type, 16-bit big-endian length, value): the header's, or the sub-TLVs of its SSL TLV.</summary>
internal static class ProxyTlvs
{
    private const int TlvHeaderLength = 3;

    /// <summary>True when every TLV of <paramref name="tlvs"/> lies within it and the known ones have their specified sizes.</summary>
    public static bool AreWellFormed(ReadOnlySpan<byte> tlvs, bool insideSsl)
    {
        while (!tlvs.IsEmpty)
        {
            if (!TryTake(ref tlvs, out var type, out var value) || !HasValidSize(type, value, insideSsl))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The value of the first TLV of <paramref name="type"/>; empty when there is none.</summary>
    public static bool TryFind(ReadOnlySpan<byte> tlvs, byte type, out ReadOnlySpan<byte> value)
    {
        while (TryTake(ref tlvs, out var found, out value))
        {
            if (found == type)
            {
                return true;
            }
        }

        value = default;
        return false;
    }

    private static bool TryTake(scoped ref ReadOnlySpan<byte> tlvs, out byte type, out ReadOnlySpan<byte> value)
    {
        if (tlvs.Length < TlvHeaderLength)
        {
            type = 0;
            value = default;
            return false;
        }

        type = tlvs[0];
        int length = BinaryPrimitives.ReadUInt16BigEndian(tlvs[1..]);
        if (tlvs.Length - TlvHeaderLength < length)
        {
            value = default;
            return false;
        }

        value = tlvs.Slice(TlvHeaderLength, length);
        tlvs = tlvs[(TlvHeaderLength + length)..];
        return true;
    }

    private static bool HasValidSize(byte type, ReadOnlySpan<byte> value, bool insideSsl) => insideSsl || type switch
    {
        ProxyTlvType.Crc32c => value.Length == 4,
        ProxyTlvType.UniqueId => value.Length <= ProxySslInfo.MaxUniqueIdLength,
        ProxyTlvType.Ssl => value.Length >= ProxySslInfo.FixedLength && AreWellFormed(value[ProxySslInfo.FixedLength..], insideSsl: true),
        _ => true,
    };
}
