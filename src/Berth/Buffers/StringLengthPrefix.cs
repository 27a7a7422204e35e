namespace Berth.Buffers;

/// <summary>How a variable-length string announces its byte count.</summary>
public enum StringLengthPrefix
{
    /// <summary>An unsigned 16-bit count in the writer's byte order (at most 65,535 bytes).</summary>
    UInt16,

    /// <summary>An unsigned LEB128 varint: 7 bits a byte, low groups first, high bit set on all but the last.</summary>
    VarInt,
}
