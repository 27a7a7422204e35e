using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using Berth.Framing;

namespace Berth.Buffers;

/// <summary>
/// Writes packet fields straight into an <see cref="IBufferWriter{T}"/>'s memory. It keeps the span it was given
/// and advances the output once per span (on <see cref="Flush"/> or when the span is full), so a field costs a
/// bounds check and a store. Call <see cref="Flush"/> when done; nothing reaches the output before that.
/// </summary>
public ref struct PacketWriter
{
    // Longer strings are counted first: their longest encoding would not fit a span anyway, and it keeps the
    // longest-encoding arithmetic far from overflow.
    private const int MaxCharsEncodedInSpan = 1 << 20;

    // The most a writer with no room left asks its output for so that a string can be encoded in place.
    private const int MaxBytesAskedForInPlace = 4096;

    private readonly IBufferWriter<byte> _output;
    private bool _reverse;
    private Span<byte> _span;
    private int _buffered;
    private long _flushed;
    private int _openReservations;

    /// <summary>Creates a writer over <paramref name="output"/> with multi-byte fields in <paramref name="endianness"/> order.</summary>
    public PacketWriter(IBufferWriter<byte> output, Endianness endianness = Endianness.Little)
    {
        ArgumentNullException.ThrowIfNull(output);
        _output = output;
        Endianness = endianness;
    }

    /// <summary>
    /// Creates a little-endian writer that starts in <paramref name="span"/>, which <paramref name="output"/> just gave
    /// (its <c>GetSpan</c>): a caller that holds the output's concrete type spares the first field a <see cref="Grow"/>
    /// through the interface.
    /// </summary>
    internal PacketWriter(IBufferWriter<byte> output, Span<byte> span)
        : this(output) => _span = span;

    /// <summary>
    /// Byte order of the multi-byte fields written from now on. One packet may change it between fields: a big-endian
    /// message body after the packet layer's little-endian id.
    /// </summary>
    public Endianness Endianness
    {
        readonly get;
        set
        {
            field = value;
            _reverse = (value == Endianness.Big) == BitConverter.IsLittleEndian;
        }
    }

    /// <summary>Bytes written through this writer, flushed or not.</summary>
    public readonly long BytesWritten => _flushed + _buffered;

    /// <summary>Writes one unsigned byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteByte(byte value) => Acquire(1) = value;

    /// <summary>Writes one signed byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteSByte(sbyte value) => Acquire(1) = (byte)value;

    /// <summary>Writes a boolean as one byte, 1 or 0.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBoolean(bool value) => Acquire(1) = value ? (byte)1 : (byte)0;

    /// <summary>Writes an unsigned 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUInt16(ushort value) => WriteRaw(_reverse ? BinaryPrimitives.ReverseEndianness(value) : value);

    /// <summary>Writes a signed 16-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteInt16(short value) => WriteRaw(_reverse ? BinaryPrimitives.ReverseEndianness(value) : value);

    /// <summary>Writes an unsigned 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUInt32(uint value) => WriteRaw(_reverse ? BinaryPrimitives.ReverseEndianness(value) : value);

    /// <summary>Writes a signed 32-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteInt32(int value) => WriteRaw(_reverse ? BinaryPrimitives.ReverseEndianness(value) : value);

    /// <summary>Writes an unsigned 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteUInt64(ulong value) => WriteRaw(_reverse ? BinaryPrimitives.ReverseEndianness(value) : value);

    /// <summary>Writes a signed 64-bit integer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteInt64(long value) => WriteRaw(_reverse ? BinaryPrimitives.ReverseEndianness(value) : value);

    /// <summary>Writes an IEEE 754 single-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteSingle(float value) => WriteUInt32(BitConverter.SingleToUInt32Bits(value));

    /// <summary>Writes an IEEE 754 double-precision number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteDouble(double value) => WriteUInt64(BitConverter.DoubleToUInt64Bits(value));

    /// <summary>Writes an unsigned LEB128 varint (1 to 5 bytes).</summary>
    public void WriteVarUInt32(uint value)
    {
        while (value >= 0x80)
        {
            Acquire(1) = (byte)(value | 0x80);
            value >>= 7;
        }

        Acquire(1) = (byte)value;
    }

    /// <summary>
    /// Returns the next <paramref name="length"/> bytes of output, counted as written, for a serializer that fills a
    /// span of a size it computed first (Google.Protobuf's <c>WriteTo(Span&lt;byte&gt;)</c>); fill all of it before the next write.
    /// </summary>
    public Span<byte> TakeSpan(int length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        return AcquireSpan(length);
    }

    /// <summary>Writes raw bytes as they are.</summary>
    public void WriteBytes(scoped ReadOnlySpan<byte> value)
    {
        while (value.Length > 0)
        {
            if (_span.Length == _buffered)
            {
                Grow(1);
            }

            var chunk = Math.Min(value.Length, _span.Length - _buffered);
            value[..chunk].CopyTo(_span[_buffered..]);
            _buffered += chunk;
            value = value[chunk..];
        }
    }

    /// <summary>Writes a string as UTF-8 after its byte count.</summary>
    /// <exception cref="ArgumentException">The encoded string is longer than the prefix can announce.</exception>
    public void WriteUtf8(scoped ReadOnlySpan<char> value, StringLengthPrefix prefix = StringLengthPrefix.UInt16)
    {
        if (!TryWriteUtf8InSpan(value, prefix))
        {
            WriteUtf8Counted(value, prefix);
        }
    }

    // Out of line: the counting encoder's pinned buffers would otherwise take stack, cleared on entry, in every writer of
    // a string, where the usual case is encoded in place.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteUtf8Counted(scoped ReadOnlySpan<char> value, StringLengthPrefix prefix)
    {
        var byteCount = Encoding.UTF8.GetByteCount(value);
        WriteLengthPrefix(byteCount, prefix);
        Encoding.UTF8.GetBytes(value, AcquireSpan(byteCount));
    }

    /// <summary>Writes a string of ASCII characters, one byte each, after its byte count.</summary>
    /// <exception cref="ArgumentException">A character is not ASCII, or the string is longer than the prefix can announce.</exception>
    public void WriteAscii(scoped ReadOnlySpan<char> value, StringLengthPrefix prefix = StringLengthPrefix.UInt16)
    {
        WriteLengthPrefix(value.Length, prefix);
        EncodeAscii(value, AcquireSpan(value.Length));
    }

    /// <summary>Writes a string as exactly <paramref name="byteLength"/> UTF-8 bytes, padded with zero bytes.</summary>
    /// <exception cref="ArgumentException">The encoded string does not fit in <paramref name="byteLength"/> bytes.</exception>
    public void WriteFixedUtf8(scoped ReadOnlySpan<char> value, int byteLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(byteLength);
        if (Encoding.UTF8.GetByteCount(value) > byteLength)
        {
            throw new ArgumentException($"The string needs more than {byteLength} UTF-8 bytes.", nameof(value));
        }

        var field = AcquireSpan(byteLength);
        field[Encoding.UTF8.GetBytes(value, field)..].Clear();
    }

    /// <summary>Writes ASCII characters as exactly <paramref name="byteLength"/> bytes, padded with zero bytes.</summary>
    /// <exception cref="ArgumentException">A character is not ASCII, or the string is longer than <paramref name="byteLength"/>.</exception>
    public void WriteFixedAscii(scoped ReadOnlySpan<char> value, int byteLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(byteLength);
        if (value.Length > byteLength)
        {
            throw new ArgumentException($"The string is longer than {byteLength} bytes.", nameof(value));
        }

        var field = AcquireSpan(byteLength);
        EncodeAscii(value, field);
        field[value.Length..].Clear();
    }

    /// <summary>
    /// Leaves room for a length field in <paramref name="format"/> and returns it; write the body, then call
    /// <see cref="BackfillLength"/>. A body that outgrows the current span needs an output whose memory stays put
    /// (<see cref="IStableBufferWriter"/> such as <see cref="PooledBufferWriter"/>, or a <see cref="PipeWriter"/>).
    /// </summary>
    public LengthReservation ReserveLength(LengthFieldFormat format)
    {
        ArgumentNullException.ThrowIfNull(format);
        var header = AcquireSpan(format.HeaderLength);
        _openReservations++;
        return new LengthReservation(header, BytesWritten, format);
    }

    /// <summary>Writes the length of everything written since <paramref name="reservation"/> was made into its room.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body is shorter than the format's <see cref="LengthFieldFormat.MinBodyLength"/> or longer than its
    /// <see cref="LengthFieldFormat.MaxBodyLength"/>.
    /// </exception>
    public void BackfillLength(scoped in LengthReservation reservation)
    {
        var bodyLength = BytesWritten - reservation.BodyStart;
        reservation.Format.CheckBodyLength(bodyLength, "body");
        reservation.Format.WriteHeader(reservation.Header, (int)bodyLength);
        _openReservations--;
    }

    /// <summary>Advances the output past everything written so far.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Flush()
    {
        EnsureMayLeaveSpan();
        if (_buffered > 0)
        {
            _output.Advance(_buffered);
            _flushed += _buffered;
            _buffered = 0;
        }

        _span = default;
    }

    /// <summary>
    /// Writes values of a fixed-width number type or an enum of one one after another, the same bytes as writing each
    /// with its own method: one copy when the writer's byte order is the machine's, each value turned around otherwise.
    /// </summary>
    /// <typeparam name="T">
    /// <see cref="byte"/>, <see cref="sbyte"/>, <see cref="short"/>, <see cref="ushort"/>, <see cref="char"/>,
    /// <see cref="int"/>, <see cref="uint"/>, <see cref="long"/>, <see cref="ulong"/>, <see cref="float"/>,
    /// <see cref="double"/>, or an enum of one of the integers.
    /// </typeparam>
    /// <exception cref="ArgumentException"><typeparamref name="T"/> is none of those.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteElements<T>(scoped ReadOnlySpan<T> values)
        where T : unmanaged
    {
        ElementTypes.Check<T>();
        if (_reverse && Unsafe.SizeOf<T>() != 1)
        {
            WriteElementsReversed(values);
            return;
        }

        WriteBytes(MemoryMarshal.AsBytes(values));
    }

    // Out of line: turning each element around is the work of a byte order other than the machine's, and its loop would
    // grow every caller the one copy is inlined into.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteElementsReversed<T>(scoped ReadOnlySpan<T> values)
        where T : unmanaged
    {
        var size = Unsafe.SizeOf<T>();
        foreach (var value in values)
        {
            ref var slot = ref Acquire(size);
            Unsafe.WriteUnaligned(ref slot, value);
            MemoryMarshal.CreateSpan(ref slot, size).Reverse();
        }
    }

    /// <summary>Writes a value's memory as it is: a contract whose layout the generated code proved equal to its wire form.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WriteBlock<T>(in T value)
        where T : unmanaged => Unsafe.WriteUnaligned(ref Acquire(Unsafe.SizeOf<T>()), value);

    /// <summary>
    /// Encodes the string straight into the current span after room for its prefix, then writes the prefix, when
    /// the span holds the longest encoding and the shortest and longest byte counts take a prefix of the same size
    /// (a UTF-16 string encodes to at least one byte a character). This spares counting the bytes first.
    /// </summary>
    private bool TryWriteUtf8InSpan(scoped ReadOnlySpan<char> value, StringLengthPrefix prefix)
    {
        if (value.Length > MaxCharsEncodedInSpan)
        {
            return false;
        }

        var maxBytes = Encoding.UTF8.GetMaxByteCount(value.Length);
        var prefixLength = LengthPrefixSize(value.Length, prefix);
        if (prefixLength == 0 || prefixLength != LengthPrefixSize(maxBytes, prefix))
        {
            return false;
        }

        if (_span.Length == _buffered && prefixLength + maxBytes <= MaxBytesAskedForInPlace)
        {
            // No room at all, so the counted path would ask for a span too; asking for the longest encoding instead
            // costs nothing more for a short string, and lets a string first in a fresh writer be encoded in place.
            Grow(prefixLength + maxBytes);
        }

        if (_span.Length - _buffered < prefixLength + maxBytes)
        {
            return false;
        }

        var byteCount = Encoding.UTF8.GetBytes(value, _span.Slice(_buffered + prefixLength, maxBytes));
        WriteLengthPrefix(byteCount, prefix);
        _buffered += byteCount;
        return true;
    }

    /// <summary>Bytes the prefix takes for <paramref name="byteCount"/>, or 0 when a UInt16 prefix cannot hold it.</summary>
    private static int LengthPrefixSize(int byteCount, StringLengthPrefix prefix) => prefix switch
    {
        StringLengthPrefix.VarInt => byteCount < 1 << 7 ? 1 : byteCount < 1 << 14 ? 2 : byteCount < 1 << 21 ? 3 : byteCount < 1 << 28 ? 4 : 5,
        _ => byteCount <= ushort.MaxValue ? sizeof(ushort) : 0,
    };

    private void WriteLengthPrefix(int byteCount, StringLengthPrefix prefix)
    {
        if (prefix == StringLengthPrefix.VarInt)
        {
            WriteVarUInt32((uint)byteCount);
            return;
        }

        if (byteCount > ushort.MaxValue)
        {
            throw new ArgumentException($"A {byteCount}-byte string does not fit a UInt16 length prefix.");
        }

        WriteUInt16((ushort)byteCount);
    }

    private static void EncodeAscii(ReadOnlySpan<char> value, Span<byte> destination)
    {
        if (Ascii.FromUtf16(value, destination, out _) != OperationStatus.Done)
        {
            throw new ArgumentException("The string has a character that is not ASCII.", nameof(value));
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteRaw<T>(T value)
        where T : unmanaged => Unsafe.WriteUnaligned(ref Acquire(Unsafe.SizeOf<T>()), value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref byte Acquire(int count)
    {
        if ((uint)(_span.Length - _buffered) < (uint)count)
        {
            Grow(count);
        }

        ref var start = ref Unsafe.Add(ref MemoryMarshal.GetReference(_span), _buffered);
        _buffered += count;
        return ref start;
    }

    private Span<byte> AcquireSpan(int count) => MemoryMarshal.CreateSpan(ref Acquire(count), count);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int count)
    {
        Flush();
        _span = _output.GetSpan(count);
        if (_span.Length < count)
        {
            throw OutputGaveLess(_span.Length, count);
        }
    }

    // Out of line: formatting the text in Grow would give Grow, which runs for every packet's first field, a larger frame to clear.
    private static InvalidOperationException OutputGaveLess(int given, int asked) =>
        new($"The output gave {given} bytes where {asked} were asked for.");

    private readonly void EnsureMayLeaveSpan()
    {
        // Checked only with a reservation open: an interface cast per writer would cost as much as a dozen fields.
        // The cast is out of line, so a flush without a reservation is one compare and a branch.
        if (_openReservations > 0)
        {
            EnsureOutputStaysPut();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void EnsureOutputStaysPut()
    {
        if (_output is not (IStableBufferWriter or PipeWriter))
        {
            throw new InvalidOperationException(
                "A reserved length would be left behind in memory this output may move; write frames into an IStableBufferWriter such as PooledBufferWriter.");
        }
    }
}
