using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Unicode;

namespace Berth.Buffers;

/// <summary>
/// Reads the fields <see cref="PacketWriter"/> writes, from one span or a multi-segment sequence, without copying
/// except for a field that straddles two segments. <c>TryRead*</c> return false and consume nothing when the field
/// is incomplete or malformed; <c>Read*</c> throw <see cref="PacketFormatException"/> naming the field's offset.
/// </summary>
public ref struct PacketReader
{
    private const int MaxVarUInt32Length = 5;

    private readonly ReadOnlySequence<byte> _sequence;
    private readonly long _length;
    private readonly bool _reverse;
    private readonly bool _overSequence;
    private ReadOnlySpan<byte> _current;
    private SequencePosition _next;
    private long _afterCurrent;

    // Set when the sequence is one run of one array, the usual frame: a view then is that array's run, not a slice of
    // the sequence, and the first span is taken without the sequence's lookup.
    private readonly byte[]? _run;
    private readonly int _runStart;

    /// <summary>Creates a reader over one contiguous packet.</summary>
    public PacketReader(ReadOnlySpan<byte> packet, Endianness endianness = Endianness.Little)
    {
        _current = packet;
        _length = packet.Length;
        Endianness = endianness;
        _reverse = (endianness == Endianness.Big) == BitConverter.IsLittleEndian;
    }

    /// <summary>Creates a reader over a packet that may span several segments.</summary>
    public PacketReader(in ReadOnlySequence<byte> packet, Endianness endianness = Endianness.Little)
    {
        Endianness = endianness;
        _reverse = (endianness == Endianness.Big) == BitConverter.IsLittleEndian;
        if (ArrayRun.TryGet(packet, out var array, out var start))
        {
            // Read as a span that knows its array: the sequence itself is never needed again.
            _run = array;
            _runStart = start;
            _current = ArrayRun.Span(packet, array, start);
            _length = _current.Length;
            return;
        }

        _sequence = packet;
        _overSequence = true;
        _length = packet.Length;
        _current = packet.FirstSpan;
        // A frame in one segment never moves to a next one: its end spares seeking a position.
        _next = packet.IsSingleSegment ? packet.End : packet.GetPosition(_current.Length);
        _afterCurrent = _length - _current.Length;
    }

    /// <summary>Byte order of the multi-byte fields this reader expects.</summary>
    public Endianness Endianness { get; }

    /// <summary>Bytes read so far.</summary>
    public readonly long Consumed => _length - Remaining;

    /// <summary>Bytes not read yet.</summary>
    public readonly long Remaining => _current.Length + _afterCurrent;

    /// <summary>Reads one unsigned byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadByte(out byte value) => TryReadRaw(out value);

    /// <summary>Reads one signed byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadSByte(out sbyte value) => TryReadRaw(out value);

    /// <summary>Reads a boolean written as one byte, 0 or 1; any other value is malformed.</summary>
    public bool TryReadBoolean(out bool value)
    {
        var probe = this;
        value = false;
        if (!probe.TryReadRaw(out byte raw) || raw > 1)
        {
            return false;
        }

        this = probe;
        value = raw == 1;
        return true;
    }

    /// <summary>Reads an unsigned 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt16(out ushort value)
    {
        var read = TryReadRaw(out value);
        value = _reverse ? BinaryPrimitives.ReverseEndianness(value) : value;
        return read;
    }

    /// <summary>Reads a signed 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadInt16(out short value)
    {
        var read = TryReadRaw(out value);
        value = _reverse ? BinaryPrimitives.ReverseEndianness(value) : value;
        return read;
    }

    /// <summary>Reads an unsigned 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt32(out uint value)
    {
        var read = TryReadRaw(out value);
        value = _reverse ? BinaryPrimitives.ReverseEndianness(value) : value;
        return read;
    }

    /// <summary>Reads a signed 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadInt32(out int value)
    {
        var read = TryReadRaw(out value);
        value = _reverse ? BinaryPrimitives.ReverseEndianness(value) : value;
        return read;
    }

    /// <summary>Reads an unsigned 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadUInt64(out ulong value)
    {
        var read = TryReadRaw(out value);
        value = _reverse ? BinaryPrimitives.ReverseEndianness(value) : value;
        return read;
    }

    /// <summary>Reads a signed 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadInt64(out long value)
    {
        var read = TryReadRaw(out value);
        value = _reverse ? BinaryPrimitives.ReverseEndianness(value) : value;
        return read;
    }

    /// <summary>Reads an IEEE 754 single-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadSingle(out float value)
    {
        var read = TryReadUInt32(out var bits);
        value = BitConverter.UInt32BitsToSingle(bits);
        return read;
    }

    /// <summary>Reads an IEEE 754 double-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadDouble(out double value)
    {
        var read = TryReadUInt64(out var bits);
        value = BitConverter.UInt64BitsToDouble(bits);
        return read;
    }

    /// <summary>Reads an unsigned LEB128 varint of at most 5 bytes; a longer or overflowing one is malformed.</summary>
    public bool TryReadVarUInt32(out uint value)
    {
        // Decoded in the current span when it holds the whole varint, the usual case; only a varint straddling
        // segments takes the general path, which copies the whole reader so that a failure consumes nothing.
        var span = _current;
        var result = 0u;
        var inSpan = Math.Min(span.Length, MaxVarUInt32Length);
        for (var i = 0; i < inSpan; i++)
        {
            var part = span[i];
            if (i == MaxVarUInt32Length - 1 && part > 0x0F)
            {
                break;
            }

            result |= (uint)(part & 0x7F) << (7 * i);
            if (part < 0x80)
            {
                _current = span[(i + 1)..];
                value = result;
                return true;
            }
        }

        if (inSpan == MaxVarUInt32Length)
        {
            value = 0;
            return false;
        }

        return TryReadVarUInt32AcrossSegments(out value);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryReadVarUInt32AcrossSegments(out uint value)
    {
        var probe = this;
        value = 0;
        for (var shift = 0; shift < 35; shift += 7)
        {
            if (!probe.TryReadRaw(out byte part) || (shift == 28 && part > 0x0F))
            {
                value = 0;
                return false;
            }

            value |= (uint)(part & 0x7F) << shift;
            if (part < 0x80)
            {
                this = probe;
                return true;
            }
        }

        value = 0;
        return false;
    }

    /// <summary>Copies the next <c>destination.Length</c> bytes into <paramref name="destination"/>.</summary>
    public bool TryReadBytes(scoped Span<byte> destination)
    {
        // Through a local, as TryReadRaw: one length check when the bytes lie in the current span, the usual case.
        var current = _current;
        if (current.Length >= destination.Length)
        {
            current[..destination.Length].CopyTo(destination);
            _current = current[destination.Length..];
            return true;
        }

        if (Remaining < destination.Length)
        {
            return false;
        }

        CopyAndAdvance(destination);
        return true;
    }

    /// <summary>The next <paramref name="byteCount"/> bytes without consuming them, when they lie in one segment.</summary>
    internal readonly bool TryPeekContiguous(int byteCount, out ReadOnlySpan<byte> bytes)
    {
        var contiguous = _current.Length >= byteCount;
        bytes = contiguous ? _current[..byteCount] : default;
        return contiguous;
    }

    /// <summary>Where <paramref name="current"/>, the reader's current span, begins in the run's array.</summary>
    // A reader over a run has one span and nothing after it, so what it has consumed is the run's length less that span.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int RunOffset(ReadOnlySpan<byte> current) => _runStart + (int)(_length - current.Length);

    /// <summary>
    /// Takes a field counted by a varint of one or two bytes (fewer than 16,384 bytes, the usual string) as a view, when
    /// the reader is over one run of one array and the whole field lies in it: its span and the same bytes as a
    /// sequence. False, consuming nothing, otherwise, and the caller reads the count and the bytes the general way.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool TryReadShortCountedRunView(out ReadOnlySpan<byte> bytes, out ReadOnlySequence<byte> view)
    {
        var current = _current;
        bytes = default;
        view = default;
        if (_run is null || current.Length < 2)
        {
            return false;
        }

        int count = current[0];
        var prefix = 1;
        if (count >= 0x80)
        {
            int high = current[1];
            if (high >= 0x80)
            {
                return false;
            }

            count = (count & 0x7F) | (high << 7);
            prefix = 2;
        }

        if ((uint)(prefix + count) > (uint)current.Length)
        {
            return false;
        }

        bytes = current.Slice(prefix, count);
        view = new ReadOnlySequence<byte>(_run, RunOffset(current) + prefix, count);
        _current = current[(prefix + count)..];
        return true;
    }

    /// <summary>
    /// Takes the next <paramref name="byteCount"/> bytes as a view when the reader is over one run of one array, the
    /// usual frame: their span and the same bytes as a sequence, without copying. False, consuming nothing, otherwise.
    /// </summary>
    internal bool TryReadRunView(int byteCount, out ReadOnlySpan<byte> bytes, out ReadOnlySequence<byte> view)
    {
        var current = _current;
        if (_run is null || (uint)byteCount > (uint)current.Length)
        {
            bytes = default;
            view = default;
            return false;
        }

        bytes = current[..byteCount];
        view = new ReadOnlySequence<byte>(_run, RunOffset(current), byteCount);
        _current = current[byteCount..];
        return true;
    }

    /// <summary>
    /// Takes the next <paramref name="byteCount"/> bytes as a view of the packet, without copying, when the reader was
    /// made over a sequence; a reader made over a span has no memory to point into, so it copies them into a new array.
    /// </summary>
    internal bool TryReadSlice(int byteCount, out ReadOnlySequence<byte> slice)
    {
        slice = default;
        if (Remaining < byteCount)
        {
            return false;
        }

        if (_run is not null)
        {
            return TryReadRunView(byteCount, out _, out slice);
        }

        // A flag rather than comparing the sequence's length, which sums its segments, on every view a message takes.
        if (!_overSequence)
        {
            var copy = new byte[byteCount];
            CopyAndAdvance(copy);
            slice = new ReadOnlySequence<byte>(copy);
            return true;
        }

        slice = _sequence.Slice(Consumed, byteCount);
        var left = byteCount;
        while (true)
        {
            var chunk = Math.Min(left, _current.Length);
            _current = _current[chunk..];
            left -= chunk;
            if (left == 0)
            {
                return true;
            }

            MoveToNextSegment();
        }
    }

    /// <summary>Reads a UTF-8 string after its byte count; invalid UTF-8 is malformed.</summary>
    public bool TryReadUtf8([NotNullWhen(true)] out string? value, StringLengthPrefix prefix = StringLengthPrefix.UInt16) =>
        TryReadString(Encoding.UTF8, prefix, out value);

    /// <summary>Reads an ASCII string after its byte count; a byte over 0x7F is malformed.</summary>
    public bool TryReadAscii([NotNullWhen(true)] out string? value, StringLengthPrefix prefix = StringLengthPrefix.UInt16) =>
        TryReadString(Encoding.ASCII, prefix, out value);

    /// <summary>Reads a UTF-8 string after its byte count into <paramref name="destination"/>, without allocating.</summary>
    public bool TryReadUtf8(scoped Span<char> destination, out int charsWritten, StringLengthPrefix prefix = StringLengthPrefix.UInt16)
    {
        var probe = this;
        charsWritten = 0;
        if (!probe.TryReadLengthPrefix(prefix, out var byteCount) || !probe.TryDecode(Encoding.UTF8, byteCount, destination, out charsWritten))
        {
            return false;
        }

        this = probe;
        return true;
    }

    /// <summary>Reads a fixed-size UTF-8 field of <paramref name="byteLength"/> bytes, dropping the zero padding.</summary>
    public bool TryReadFixedUtf8(int byteLength, [NotNullWhen(true)] out string? value) =>
        TryReadFixed(Encoding.UTF8, byteLength, out value);

    /// <summary>Reads a fixed-size ASCII field of <paramref name="byteLength"/> bytes, dropping the zero padding.</summary>
    public bool TryReadFixedAscii(int byteLength, [NotNullWhen(true)] out string? value) =>
        TryReadFixed(Encoding.ASCII, byteLength, out value);

    /// <summary>Reads one unsigned byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public byte ReadByte() => TryReadByte(out var v) ? v : throw Fail(nameof(Byte));

    /// <summary>Reads one signed byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public sbyte ReadSByte() => TryReadSByte(out var v) ? v : throw Fail(nameof(SByte));

    /// <summary>Reads a boolean written as one byte, 0 or 1.</summary>
    public bool ReadBoolean() => TryReadBoolean(out var v) ? v : throw Fail(nameof(Boolean));

    /// <summary>Reads an unsigned 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ushort ReadUInt16() => TryReadUInt16(out var v) ? v : throw Fail(nameof(UInt16));

    /// <summary>Reads a signed 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public short ReadInt16() => TryReadInt16(out var v) ? v : throw Fail(nameof(Int16));

    /// <summary>Reads an unsigned 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public uint ReadUInt32() => TryReadUInt32(out var v) ? v : throw Fail(nameof(UInt32));

    /// <summary>Reads a signed 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int ReadInt32() => TryReadInt32(out var v) ? v : throw Fail(nameof(Int32));

    /// <summary>Reads an unsigned 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong ReadUInt64() => TryReadUInt64(out var v) ? v : throw Fail(nameof(UInt64));

    /// <summary>Reads a signed 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long ReadInt64() => TryReadInt64(out var v) ? v : throw Fail(nameof(Int64));

    /// <summary>Reads an IEEE 754 single-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public float ReadSingle() => TryReadSingle(out var v) ? v : throw Fail(nameof(Single));

    /// <summary>Reads an IEEE 754 double-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public double ReadDouble() => TryReadDouble(out var v) ? v : throw Fail(nameof(Double));

    /// <summary>Reads an unsigned LEB128 varint of at most 5 bytes.</summary>
    public uint ReadVarUInt32() => TryReadVarUInt32(out var v) ? v : throw Fail("VarUInt32");

    /// <summary>Copies the next <c>destination.Length</c> bytes into <paramref name="destination"/>.</summary>
    public void ReadBytes(scoped Span<byte> destination)
    {
        if (!TryReadBytes(destination))
        {
            throw Fail("Bytes");
        }
    }

    /// <summary>Reads a UTF-8 string after its byte count.</summary>
    public string ReadUtf8(StringLengthPrefix prefix = StringLengthPrefix.UInt16) =>
        TryReadUtf8(out var v, prefix) ? v : throw Fail("Utf8");

    /// <summary>Reads an ASCII string after its byte count.</summary>
    public string ReadAscii(StringLengthPrefix prefix = StringLengthPrefix.UInt16) =>
        TryReadAscii(out var v, prefix) ? v : throw Fail("Ascii");

    /// <summary>Reads a UTF-8 string after its byte count into <paramref name="destination"/> and returns the characters written.</summary>
    public int ReadUtf8(scoped Span<char> destination, StringLengthPrefix prefix = StringLengthPrefix.UInt16) =>
        TryReadUtf8(destination, out var written, prefix) ? written : throw Fail("Utf8");

    /// <summary>Reads a fixed-size UTF-8 field, dropping the zero padding.</summary>
    public string ReadFixedUtf8(int byteLength) => TryReadFixedUtf8(byteLength, out var v) ? v : throw Fail("FixedUtf8");

    /// <summary>Reads a fixed-size ASCII field, dropping the zero padding.</summary>
    public string ReadFixedAscii(int byteLength) => TryReadFixedAscii(byteLength, out var v) ? v : throw Fail("FixedAscii");

    /// <summary>
    /// Fills <paramref name="destination"/> with the values <see cref="PacketWriter.WriteElements{T}"/> wrote: one copy
    /// when the reader's byte order is the machine's, then each value turned around otherwise. Consumes nothing and
    /// returns false when fewer than <c>destination.Length</c> values are left.
    /// </summary>
    /// <typeparam name="T">A type <see cref="PacketWriter.WriteElements{T}"/> takes.</typeparam>
    /// <exception cref="ArgumentException"><typeparamref name="T"/> is not one of them.</exception>
    public bool TryReadElements<T>(scoped Span<T> destination)
        where T : unmanaged
    {
        ElementTypes.Check<T>();
        if (!TryReadBytes(MemoryMarshal.AsBytes(destination)))
        {
            return false;
        }

        if (_reverse)
        {
            ReverseEach(destination);
        }

        return true;
    }

    /// <summary>Fills <paramref name="destination"/> with the values <see cref="PacketWriter.WriteElements{T}"/> wrote.</summary>
    /// <typeparam name="T">A type <see cref="PacketWriter.WriteElements{T}"/> takes.</typeparam>
    /// <exception cref="ArgumentException"><typeparamref name="T"/> is not one of them.</exception>
    public void ReadElements<T>(scoped Span<T> destination)
        where T : unmanaged
    {
        if (!TryReadElements(destination))
        {
            throw Fail("Elements");
        }
    }

    /// <summary>Reads a value's memory as it is: a contract whose layout the generated code proved equal to its wire form.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool TryReadBlock<T>(out T value)
        where T : unmanaged => TryReadRaw(out value);

    private static void ReverseEach<T>(Span<T> values)
        where T : unmanaged
    {
        switch (Unsafe.SizeOf<T>())
        {
            case sizeof(ushort):
                var shorts = MemoryMarshal.Cast<T, ushort>(values);
                BinaryPrimitives.ReverseEndianness(shorts, shorts);
                break;
            case sizeof(uint):
                var ints = MemoryMarshal.Cast<T, uint>(values);
                BinaryPrimitives.ReverseEndianness(ints, ints);
                break;
            case sizeof(ulong):
                var longs = MemoryMarshal.Cast<T, ulong>(values);
                BinaryPrimitives.ReverseEndianness(longs, longs);
                break;
        }
    }

    private readonly PacketFormatException Fail(string field) =>
        new(field, Consumed, Remaining == 0 ? "the packet ended" : "the packet is truncated or the value is malformed");

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadRaw<T>(out T value)
        where T : unmanaged
    {
        // Through a local: the field lives in memory wherever the reader's address is taken, so the slice of the field
        // would check its length a second time.
        var size = Unsafe.SizeOf<T>();
        var current = _current;
        if (current.Length >= size)
        {
            value = Unsafe.ReadUnaligned<T>(ref MemoryMarshal.GetReference(current));
            _current = current[size..];
            return true;
        }

        return TryReadRawAcrossSegments(out value);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryReadRawAcrossSegments<T>(out T value)
        where T : unmanaged
    {
        value = default;
        return TryReadBytes(MemoryMarshal.AsBytes(MemoryMarshal.CreateSpan(ref value, 1)));
    }

    private void CopyAndAdvance(scoped Span<byte> destination)
    {
        while (true)
        {
            var chunk = Math.Min(destination.Length, _current.Length);
            _current[..chunk].CopyTo(destination);
            _current = _current[chunk..];
            destination = destination[chunk..];
            if (destination.IsEmpty)
            {
                return;
            }

            MoveToNextSegment();
        }
    }

    private void MoveToNextSegment()
    {
        do
        {
            _sequence.TryGet(ref _next, out var memory);
            _current = memory.Span;
            _afterCurrent -= _current.Length;
        }
        while (_current.IsEmpty && _afterCurrent > 0);
    }

    /// <summary>Decodes a length prefix that lies whole in the current span, without consuming it.</summary>
    private readonly bool TryPeekLengthPrefix(StringLengthPrefix prefix, out int prefixLength, out int byteCount)
    {
        var span = _current;
        prefixLength = 0;
        byteCount = 0;
        if (prefix != StringLengthPrefix.VarInt)
        {
            if (span.Length < sizeof(ushort))
            {
                return false;
            }

            var raw = Unsafe.ReadUnaligned<ushort>(ref MemoryMarshal.GetReference(span));
            byteCount = _reverse ? BinaryPrimitives.ReverseEndianness(raw) : raw;
            prefixLength = sizeof(ushort);
            return true;
        }

        // Four varint bytes carry 28 bits, so a count this path accepts always fits an int.
        var result = 0;
        var inSpan = Math.Min(span.Length, MaxVarUInt32Length - 1);
        for (var i = 0; i < inSpan; i++)
        {
            var part = span[i];
            result |= (part & 0x7F) << (7 * i);
            if (part < 0x80)
            {
                prefixLength = i + 1;
                byteCount = result;
                return true;
            }
        }

        return false;
    }

    private bool TryReadLengthPrefix(StringLengthPrefix prefix, out int byteCount)
    {
        byteCount = 0;
        if (prefix == StringLengthPrefix.VarInt)
        {
            if (!TryReadVarUInt32(out var count) || count > int.MaxValue)
            {
                return false;
            }

            byteCount = (int)count;
            return true;
        }

        if (!TryReadUInt16(out var shortCount))
        {
            return false;
        }

        byteCount = shortCount;
        return true;
    }

    private bool TryReadString(Encoding encoding, StringLengthPrefix prefix, [NotNullWhen(true)] out string? value)
    {
        if (TryPeekLengthPrefix(prefix, out var prefixLength, out var count) && _current.Length - prefixLength >= count)
        {
            // The usual case, prefix and bytes in the current span: decoded where they lie, the reader untouched on failure.
            value = Decode(encoding, _current.Slice(prefixLength, count));
            if (value is null)
            {
                return false;
            }

            _current = _current[(prefixLength + count)..];
            return true;
        }

        return TryReadStringAcrossSegments(encoding, prefix, out value);
    }

    // Out of line: its copy of the reader and the pooled scratch's try/finally would otherwise take stack in, and clear
    // it on entry to, every method the usual case above is inlined into.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryReadStringAcrossSegments(Encoding encoding, StringLengthPrefix prefix, [NotNullWhen(true)] out string? value)
    {
        var probe = this;
        value = null;
        if (!probe.TryReadLengthPrefix(prefix, out var byteCount) || !probe.TryDecode(encoding, byteCount, out value))
        {
            return false;
        }

        this = probe;
        return true;
    }

    private bool TryReadFixed(Encoding encoding, int byteLength, [NotNullWhen(true)] out string? value)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(byteLength);
        var probe = this;
        if (!probe.TryDecode(encoding, byteLength, out value))
        {
            return false;
        }

        value = value.TrimEnd('\0');
        this = probe;
        return true;
    }

    private bool TryDecode(Encoding encoding, int byteCount, [NotNullWhen(true)] out string? value)
    {
        value = null;
        byte[]? rented = null;
        try
        {
            if (!TryTakeContiguous(byteCount, ref rented, out var bytes))
            {
                return false;
            }

            value = Decode(encoding, bytes);
            return value is not null;
        }
        finally
        {
            ReturnScratch(rented);
        }
    }

    private bool TryDecode(Encoding encoding, int byteCount, scoped Span<char> destination, out int charsWritten)
    {
        charsWritten = 0;
        byte[]? rented = null;
        try
        {
            if (!TryTakeContiguous(byteCount, ref rented, out var bytes)
                || !IsValid(encoding, bytes)
                || encoding.GetCharCount(bytes) > destination.Length)
            {
                return false;
            }

            charsWritten = encoding.GetChars(bytes, destination);
            return true;
        }
        finally
        {
            ReturnScratch(rented);
        }
    }

    /// <summary>The string <paramref name="bytes"/> encode, or null when they are not valid in <paramref name="encoding"/>.</summary>
    private static string? Decode(Encoding encoding, ReadOnlySpan<byte> bytes)
    {
        // ASCII, what most text fields hold, is valid in both encodings and decodes by widening each byte: one pass to
        // check it and one to widen, where UTF-8's own decoder would scan it once more to count the characters.
        return Ascii.IsValid(bytes) ? Encoding.Latin1.GetString(bytes) : DecodeNonAscii(encoding, bytes);
    }

    // Out of line: the decoder's own checks and pinned buffers would otherwise take stack in every reader of a string.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static string? DecodeNonAscii(Encoding encoding, ReadOnlySpan<byte> bytes) =>
        IsValid(encoding, bytes) ? encoding.GetString(bytes) : null;

    private static bool IsValid(Encoding encoding, ReadOnlySpan<byte> bytes) =>
        ReferenceEquals(encoding, Encoding.ASCII) ? Ascii.IsValid(bytes) : Utf8.IsValid(bytes);

    /// <summary>
    /// Consumes <paramref name="byteCount"/> bytes and returns them in one span: a slice of the current segment, or
    /// a copy in a pooled array (handed back through <paramref name="rented"/>) when they straddle segments.
    /// </summary>
    private bool TryTakeContiguous(int byteCount, ref byte[]? rented, out ReadOnlySpan<byte> bytes)
    {
        bytes = default;
        if (Remaining < byteCount)
        {
            return false;
        }

        if (_current.Length >= byteCount)
        {
            bytes = _current[..byteCount];
            _current = _current[byteCount..];
            return true;
        }

        rented = ArrayPool<byte>.Shared.Rent(byteCount);
        var copy = rented.AsSpan(0, byteCount);
        CopyAndAdvance(copy);
        bytes = copy;
        return true;
    }

    private static void ReturnScratch(byte[]? rented)
    {
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
