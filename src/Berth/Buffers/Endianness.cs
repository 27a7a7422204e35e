namespace Berth.Buffers;

/// <summary>Byte order of multi-byte fields.</summary>
public enum Endianness
{
    /// <summary>Least significant byte first (x86, ARM, most game protocols).</summary>
    Little,

    /// <summary>Most significant byte first (network byte order).</summary>
    Big,
}
