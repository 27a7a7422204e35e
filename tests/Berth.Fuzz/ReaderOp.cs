using Berth.Buffers;

namespace Berth.Fuzz;

/// <summary>One field read a <see cref="PacketReader"/> case performs.</summary>
internal enum ReaderOpKind
{
    Byte,
    SByte,
    Boolean,
    UInt16,
    Int16,
    UInt32,
    Int32,
    UInt64,
    Int64,
    Single,
    Double,
    VarUInt32,
    Bytes,
    Utf8,
    Ascii,
    Utf8IntoSpan,
    FixedUtf8,
    FixedAscii,
}

/// <summary>
/// A field to read: its kind, its size parameter (byte count for <see cref="ReaderOpKind.Bytes"/> and fixed strings,
/// destination length for <see cref="ReaderOpKind.Utf8IntoSpan"/>), its string prefix, and where the generator wrote
/// the value it expects back when the input was not mutated.
/// </summary>
internal struct ReaderOp
{
    public ReaderOpKind Kind;
    public int Size;
    public StringLengthPrefix Prefix;
    public ulong WrittenBits;
    public int ContentOffset;
    public int ContentLength;
    public int ContentChars;

    public readonly int FixedWidth => Kind switch
    {
        ReaderOpKind.Byte or ReaderOpKind.SByte or ReaderOpKind.Boolean => 1,
        ReaderOpKind.UInt16 or ReaderOpKind.Int16 => 2,
        ReaderOpKind.UInt32 or ReaderOpKind.Int32 or ReaderOpKind.Single => 4,
        ReaderOpKind.UInt64 or ReaderOpKind.Int64 or ReaderOpKind.Double => 8,
        _ => 0,
    };

    public readonly bool ReturnsString => Kind is ReaderOpKind.Utf8 or ReaderOpKind.Ascii or ReaderOpKind.FixedUtf8 or ReaderOpKind.FixedAscii;
}
