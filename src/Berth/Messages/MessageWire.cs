using System.ComponentModel;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;
using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// The field encodings generated message code is built from, so every contract encodes a type the same way and names
/// the failing field the same way. Not meant to be called by hand.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class MessageWire
{
    private const ulong DateTimeTicksMask = (1UL << 62) - 1;
    private const int DecimalBytes = 4 * sizeof(int);
    private const int GuidBytes = 16;

    // The checks run once per message and the answers are built out of line, so the checks inline into generated code.

    /// <summary>Checks the writer's byte order against the contract's and remembers where the body starts.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long BeginWrite(ref PacketWriter writer, Endianness byteOrder, string message) =>
        writer.Endianness == byteOrder ? writer.BytesWritten : throw OtherByteOrder(message, byteOrder, writer.Endianness, "writer");

    /// <summary>Checks the body written since <paramref name="start"/> against the contract's size bound.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void EndWrite(ref PacketWriter writer, long start, int maxEncodedSize, string message)
    {
        var size = writer.BytesWritten - start;
        if (size > maxEncodedSize)
        {
            throw SizeOverBound(message, size, maxEncodedSize);
        }
    }

    /// <summary>Checks the reader's byte order and the body's size before anything is decoded.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void BeginRead(ref PacketReader reader, Endianness byteOrder, int maxEncodedSize, string message)
    {
        if (reader.Endianness != byteOrder)
        {
            throw OtherByteOrder(message, byteOrder, reader.Endianness, "reader");
        }

        if (reader.Remaining > maxEncodedSize)
        {
            throw BodyOverBound(message, reader.Consumed, reader.Remaining, maxEncodedSize);
        }
    }

    /// <summary>Checks one more level of nesting against the outermost contract's bound, on writing.</summary>
    public static void CheckWriteDepth(int depth, int maxDepth, string field)
    {
        if (depth > maxDepth)
        {
            throw new ArgumentException($"{field} nests messages {depth} deep, over the bound of {maxDepth}.");
        }
    }

    /// <summary>Checks one more level of nesting against the outermost contract's bound, on reading.</summary>
    public static void CheckReadDepth(ref PacketReader reader, int depth, int maxDepth, string field)
    {
        if (depth > maxDepth)
        {
            throw new MessageFormatException(field, reader.Consumed, MessageFault.DepthOverBound, $"nesting {depth} deep, over the bound of {maxDepth}");
        }
    }

    /// <summary>The answer to a union member id that names no member of the union.</summary>
    public static MessageFormatException UnknownUnionMember(string union, long offset, int id) =>
        new(union, offset, MessageFault.Malformed, $"member id {id} is not a member of the union");

    /// <summary>The answer to writing a union value whose type is not one of the union's members.</summary>
    public static ArgumentException NotUnionMember(string union, object value) =>
        new($"{value.GetType().Name} is not a member of the union {union}.");

    /// <summary>The answer to a null in a member the contract declares non-nullable.</summary>
    public static ArgumentException NullField(string field) => new($"{field} is null but not declared nullable.");

    /// <summary>Writes whether an optional value follows: 1 present, 0 absent.</summary>
    public static void WritePresence(ref PacketWriter writer, bool present) => writer.WriteByte(present ? (byte)1 : (byte)0);

    /// <summary>Reads a presence byte; anything but 0 or 1 is malformed.</summary>
    public static bool ReadPresence(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        if (!reader.TryReadByte(out var presence))
        {
            throw Truncated(field, offset);
        }

        return presence switch
        {
            0 => false,
            1 => true,
            _ => throw new MessageFormatException(field, offset, MessageFault.Malformed, $"presence byte {presence}"),
        };
    }

    /// <summary>Writes a collection's element count after checking it against the bound.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteCount(ref PacketWriter writer, int count, int maxCount, string field)
    {
        if (count > maxCount)
        {
            throw CountOverBound(field, count, maxCount);
        }

        writer.WriteVarUInt32((uint)count);
    }

    /// <summary>
    /// Reads a collection's element count and checks it against the bound and against the bytes left, given the
    /// fewest bytes one element takes, before anything is allocated for it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ReadCount(ref PacketReader reader, int maxCount, int minElementSize, string field)
    {
        var offset = reader.Consumed;
        if (!reader.TryReadVarUInt32(out var count))
        {
            throw VarIntFault(ref reader, field, offset);
        }

        if (count > (uint)maxCount || (long)count * minElementSize > reader.Remaining)
        {
            throw CountFault(field, offset, count, maxCount, reader.Remaining);
        }

        return (int)count;
    }

    /// <summary>
    /// Writes the elements of a collection of a fixed-width primitive or enum type (not <see cref="bool"/>), whose count
    /// <see cref="WriteCount"/> wrote: the same bytes as writing each element, one copy when the contract's byte order
    /// is the machine's.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteElements<T>(ref PacketWriter writer, scoped ReadOnlySpan<T> values)
        where T : unmanaged => writer.WriteElements(values);

    /// <summary>Reads the elements <see cref="WriteElements{T}"/> wrote into <paramref name="destination"/>, sized by the count read before.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ReadElements<T>(ref PacketReader reader, scoped Span<T> destination, string field)
        where T : unmanaged
    {
        if (!reader.TryReadElements(destination))
        {
            throw Truncated(field, reader.Consumed);
        }
    }

    /// <summary>
    /// Writes a contract as its memory, one copy: only for a contract the generated code found to be laid out exactly
    /// as its wire form (fixed-width fields in wire order, no padding, the machine's byte order).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteBlock<T>(ref PacketWriter writer, in T message)
        where T : unmanaged => writer.WriteBlock(in message);

    /// <summary>
    /// Reads a contract written by <see cref="WriteBlock{T}"/> when the body holds all of it; false, consuming nothing,
    /// when it is shorter (an older writer's), so the caller reads field by field.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryReadBlock<T>(ref PacketReader reader, out T message)
        where T : unmanaged => reader.TryReadBlock(out message);

    /// <summary>Writes a string as its UTF-8 byte count (a varint) and the bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteString(ref PacketWriter writer, string value) => writer.WriteUtf8(value, StringLengthPrefix.VarInt);

    /// <summary>Reads a string written by <see cref="WriteString"/>; invalid UTF-8 is malformed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static string ReadString(ref PacketReader reader, string field) =>
        reader.TryReadUtf8(out var value, StringLengthPrefix.VarInt) ? value : throw StringFault(ref reader, field);

    /// <summary>Writes a UTF-8 view as a string field: its byte count (a varint) and the bytes.</summary>
    public static void WriteUtf8Field(ref PacketWriter writer, Utf8Field value)
    {
        writer.WriteVarUInt32((uint)value.ByteCount);
        var utf8 = value.Utf8Bytes;
        if (ArrayRun.TryGet(utf8, out var array, out var start))
        {
            // The common case, a view of one received frame: spares the sequence's first-span lookup and enumerator.
            writer.WriteBytes(ArrayRun.Span(utf8, array, start));
            return;
        }

        if (utf8.IsSingleSegment)
        {
            writer.WriteBytes(utf8.FirstSpan);
            return;
        }

        foreach (var segment in utf8)
        {
            writer.WriteBytes(segment.Span);
        }
    }

    /// <summary>Reads a string field as a view of its bytes, without allocating when the reader is over a frame; invalid UTF-8 is malformed.</summary>
    // The usual field, short and in one array run, is read inline: the general path's call and frame cost a typed echo
    // more than the view itself (docs/decisions/typed-send.md).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static Utf8Field ReadUtf8Field(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        if (reader.TryReadShortCountedRunView(out var run, out var view))
        {
            return IsUtf8(run) ? new Utf8Field(view) : throw NotUtf8(field, offset);
        }

        return ReadCountedUtf8Field(ref reader, field);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Utf8Field ReadCountedUtf8Field(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        if (!reader.TryReadVarUInt32(out var length))
        {
            throw VarIntFault(ref reader, field, offset);
        }

        if (length > reader.Remaining)
        {
            throw new MessageFormatException(field, offset, MessageFault.Truncated, $"{length} bytes announced, {reader.Remaining} left");
        }

        // Checked on the reader's current span when the bytes lie in one segment, which spares the slice a segment lookup.
        var inOneSegment = reader.TryPeekContiguous((int)length, out var contiguous);
        var validInOneSegment = inOneSegment && IsUtf8(contiguous);
        reader.TryReadSlice((int)length, out var utf8);
        var valid = inOneSegment ? validInOneSegment : Utf8Field.TryCheck(utf8);
        return valid ? new Utf8Field(utf8) : throw NotUtf8(field, offset);
    }

    // ASCII, the usual text, is checked by a scan lighter than the UTF-8 one, which also counts what it decodes.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsUtf8(ReadOnlySpan<byte> bytes) => Ascii.IsValid(bytes) || Utf8.IsValid(bytes);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static MessageFormatException NotUtf8(string field, long offset) =>
        new(field, offset, MessageFault.Malformed, "not UTF-8");

    /// <summary>Writes bytes as their count (a varint) and the bytes.</summary>
    public static void WriteBytes(ref PacketWriter writer, scoped ReadOnlySpan<byte> value)
    {
        writer.WriteVarUInt32((uint)value.Length);
        writer.WriteBytes(value);
    }

    /// <summary>Reads bytes written by <see cref="WriteBytes"/> into a new array of exactly their length.</summary>
    public static byte[] ReadBytes(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        if (!reader.TryReadVarUInt32(out var length))
        {
            throw VarIntFault(ref reader, field, offset);
        }

        if (length > reader.Remaining)
        {
            throw new MessageFormatException(field, offset, MessageFault.Truncated, $"{length} bytes announced, {reader.Remaining} left");
        }

        if (length == 0)
        {
            return [];
        }

        var value = new byte[length];
        reader.TryReadBytes(value);
        return value;
    }

    /// <summary>Writes a GUID as 16 bytes in the contract's byte order (RFC 4122 order when big-endian).</summary>
    [SkipLocalsInit]
    public static void WriteGuid(ref PacketWriter writer, Guid value)
    {
        Span<byte> bytes = stackalloc byte[GuidBytes];
        value.TryWriteBytes(bytes, writer.Endianness == Endianness.Big, out _);
        writer.WriteBytes(bytes);
    }

    /// <summary>Reads a GUID written by <see cref="WriteGuid"/>.</summary>
    [SkipLocalsInit]
    public static Guid ReadGuid(ref PacketReader reader, string field)
    {
        Span<byte> bytes = stackalloc byte[GuidBytes];
        return reader.TryReadBytes(bytes) ? new Guid(bytes, reader.Endianness == Endianness.Big) : throw Truncated(field, reader.Consumed);
    }

    /// <summary>Writes a date as 64 bits: the ticks in the low 62, the <see cref="DateTimeKind"/> in the top 2.</summary>
    public static void WriteDateTime(ref PacketWriter writer, DateTime value) =>
        writer.WriteUInt64((ulong)value.Ticks | ((ulong)value.Kind << 62));

    /// <summary>Reads a date written by <see cref="WriteDateTime"/>; ticks past the largest date or an unknown kind are malformed.</summary>
    public static DateTime ReadDateTime(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        var raw = ReadUInt64(ref reader, field);
        var ticks = (long)(raw & DateTimeTicksMask);
        var kind = raw >> 62;
        if (ticks > DateTime.MaxValue.Ticks || kind > (ulong)DateTimeKind.Local)
        {
            throw new MessageFormatException(field, offset, MessageFault.Malformed, $"date bits 0x{raw:X16}");
        }

        return new DateTime(ticks, (DateTimeKind)kind);
    }

    /// <summary>Writes a time span as its 64-bit tick count.</summary>
    public static void WriteTimeSpan(ref PacketWriter writer, TimeSpan value) => writer.WriteInt64(value.Ticks);

    /// <summary>Reads a time span written by <see cref="WriteTimeSpan"/>.</summary>
    public static TimeSpan ReadTimeSpan(ref PacketReader reader, string field) => new(ReadInt64(ref reader, field));

    /// <summary>Writes a decimal as its four 32-bit parts (low, middle, high, flags).</summary>
    [SkipLocalsInit]
    public static void WriteDecimal(ref PacketWriter writer, decimal value)
    {
        Span<int> parts = stackalloc int[4];
        decimal.GetBits(value, parts);
        foreach (var part in parts)
        {
            writer.WriteInt32(part);
        }
    }

    /// <summary>Reads a decimal written by <see cref="WriteDecimal"/>; flags a decimal cannot have are malformed.</summary>
    [SkipLocalsInit]
    public static decimal ReadDecimal(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        if (reader.Remaining < DecimalBytes)
        {
            throw Truncated(field, offset);
        }

        Span<int> parts = stackalloc int[4];
        for (var i = 0; i < parts.Length; i++)
        {
            reader.TryReadInt32(out parts[i]);
        }

        // Valid flags: only the sign bit and a scale of 0 to 28 in bits 16 to 23.
        var flags = parts[3];
        if ((flags & 0x7F00FFFF) != 0 || ((flags >> 16) & 0xFF) > 28)
        {
            throw new MessageFormatException(field, offset, MessageFault.Malformed, $"decimal flags 0x{flags:X8}");
        }

        return new decimal(parts);
    }

    /// <summary>Reads one unsigned byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static byte ReadByte(ref PacketReader reader, string field) => reader.TryReadByte(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads one signed byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static sbyte ReadSByte(ref PacketReader reader, string field) => reader.TryReadSByte(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads a boolean byte; anything but 0 or 1 is malformed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool ReadBoolean(ref PacketReader reader, string field) => reader.TryReadBoolean(out var v) ? v : throw BooleanFault(ref reader, field, reader.Consumed);

    /// <summary>Reads an unsigned 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ushort ReadUInt16(ref PacketReader reader, string field) => reader.TryReadUInt16(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads a signed 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static short ReadInt16(ref PacketReader reader, string field) => reader.TryReadInt16(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads a UTF-16 code unit as an unsigned 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static char ReadChar(ref PacketReader reader, string field) => (char)ReadUInt16(ref reader, field);

    /// <summary>Reads an unsigned 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint ReadUInt32(ref PacketReader reader, string field) => reader.TryReadUInt32(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads a signed 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ReadInt32(ref PacketReader reader, string field) => reader.TryReadInt32(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads an unsigned 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong ReadUInt64(ref PacketReader reader, string field) => reader.TryReadUInt64(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads a signed 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long ReadInt64(ref PacketReader reader, string field) => reader.TryReadInt64(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads an IEEE 754 single-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static float ReadSingle(ref PacketReader reader, string field) => reader.TryReadSingle(out var v) ? v : throw Truncated(field, reader.Consumed);

    /// <summary>Reads an IEEE 754 double-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static double ReadDouble(ref PacketReader reader, string field) => reader.TryReadDouble(out var v) ? v : throw Truncated(field, reader.Consumed);

    private static ArgumentException OtherByteOrder(string message, Endianness contract, Endianness other, string parameter) =>
        new($"{message} is a {contract}-endian contract; the {parameter} is {other}-endian.", parameter);

    private static ArgumentException SizeOverBound(string message, long size, int maxEncodedSize) =>
        new($"{message} encoded to {size} bytes, over its bound of {maxEncodedSize}.", "writer");

    private static MessageFormatException BodyOverBound(string message, long offset, long remaining, int maxEncodedSize) =>
        new(message, offset, MessageFault.SizeOverBound, $"a {remaining}-byte body, over the bound of {maxEncodedSize}");

    private static ArgumentException CountOverBound(string field, int count, int maxCount) =>
        new($"{field} has {count} elements, over the bound of {maxCount}.");

    private static MessageFormatException CountFault(string field, long offset, uint count, int maxCount, long remaining) =>
        new(field, offset, MessageFault.CountOverBound, count > (uint)maxCount
            ? $"{count} elements, over the bound of {maxCount}"
            : $"{count} elements, more than the {remaining} bytes left can hold");

    private static MessageFormatException Truncated(string field, long offset) =>
        new(field, offset, MessageFault.Truncated, "the body ended inside the field");

    private static MessageFormatException BooleanFault(ref PacketReader reader, string field, long offset) =>
        reader.Remaining == 0 ? Truncated(field, offset) : new(field, offset, MessageFault.Malformed, "a boolean byte other than 0 or 1");

    // The fault helpers take the reader by reference and copy it themselves: a reader passed by value would be a copy in
    // the caller's frame, which holds references and so is cleared on entry to every generated reader, failing or not.

    /// <summary>Why a string field was refused; a refused string consumed nothing, so the reader still stands at the field.</summary>
    private static MessageFormatException StringFault(ref PacketReader reader, string field)
    {
        var offset = reader.Consumed;
        var probe = reader;
        if (!probe.TryReadVarUInt32(out var length))
        {
            return VarIntFault(ref reader, field, offset);
        }

        return length > probe.Remaining
            ? new(field, offset, MessageFault.Truncated, $"{length} bytes announced, {probe.Remaining} left")
            : new(field, offset, MessageFault.Malformed, "not UTF-8");
    }

    /// <summary>A varint failed: truncated when every byte left continues it, malformed when it runs past five bytes.</summary>
    private static MessageFormatException VarIntFault(ref PacketReader reader, string field, long offset)
    {
        var probe = reader;
        for (var i = 0; i < 5; i++)
        {
            if (!probe.TryReadByte(out var part))
            {
                return Truncated(field, offset);
            }

            if (part < 0x80)
            {
                break;
            }
        }

        return new(field, offset, MessageFault.Malformed, "a length or count varint longer than five bytes or over 32 bits");
    }
}
