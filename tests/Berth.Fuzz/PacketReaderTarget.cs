using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Text;
using Berth.Buffers;

namespace Berth.Fuzz;

/// <summary>
/// Fuzzes <see cref="PacketReader"/>: a random script of field reads runs over an input written for it (then often
/// damaged), once over a span and once over the same bytes cut into segments. Both must agree field by field; fixed
/// fields must match an independent decoding of the raw bytes; a failed read must consume nothing; an undamaged input
/// must read back what was written; the throwing <c>Read*</c> must throw <see cref="PacketFormatException"/> exactly
/// where <c>TryRead*</c> fails. Only the strings the reader returns may allocate.
/// </summary>
internal sealed class PacketReaderTarget : IFuzzTarget
{
    private const int MaxInputLength = 1024;
    private const int MaxOps = 12;

    private static readonly Rune[] Alphabet = [new('a'), new('Z'), new('0'), new(' '), new(0xE9), new(0x20AC), new(0x1F600), new(0x7F)];

    private readonly byte[] _input = new byte[MaxInputLength];
    private readonly SegmentedSequence _segments = new(MaxInputLength);
    private readonly ReaderOp[] _ops = new ReaderOp[MaxOps];
    private readonly bool[] _expectedOk = new bool[MaxOps];
    private readonly ulong[] _expectedBits = new ulong[MaxOps];
    private readonly string?[] _expectedText = new string?[MaxOps];
    private readonly long[] _expectedConsumed = new long[MaxOps];
    private readonly byte[] _bytes = new byte[64];
    private readonly char[] _chars = new char[512];
    private readonly byte[] _reencoded = new byte[1024];

    public PacketReaderTarget()
    {
        // A string straddling segments is copied into an array from the shared pool; the pool allocates each size
        // class once per thread. Renting every class up front keeps that one-time cost out of the measured cases.
        for (var size = 16; size <= MaxInputLength; size *= 2)
        {
            ArrayPool<byte>.Shared.Return(ArrayPool<byte>.Shared.Rent(size));
        }
    }

    public string Name => "reader";

    public CaseOutcome Run(ulong caseSeed)
    {
        var random = new FuzzRandom(caseSeed);
        var endianness = random.OneIn(2) ? Endianness.Little : Endianness.Big;
        var opCount = random.Next(MaxOps + 1);
        var length = 0;
        for (var i = 0; i < opCount; i++)
        {
            length = Generate(ref _ops[i], endianness, length, ref random);
        }

        var mutated = length > 0 && !random.OneIn(3);
        if (mutated)
        {
            length = InputMutator.Mutate(_input, length, ref random);
        }
        else if (random.OneIn(4))
        {
            length += AppendNoise(length, ref random);
        }

        return Check(opCount, endianness, length, checkWritten: !mutated, ref random);
    }

    public CaseOutcome RunRaw(ReadOnlySpan<byte> raw)
    {
        if (raw.Length < 4)
        {
            return default;
        }

        var random = new FuzzRandom(BinaryPrimitives.ReadUInt16LittleEndian(raw));
        var endianness = raw[2] % 2 == 0 ? Endianness.Little : Endianness.Big;
        var opCount = raw[3] % (MaxOps + 1);
        for (var i = 0; i < opCount; i++)
        {
            Generate(ref _ops[i], endianness, 0, ref random);
        }

        var data = raw[4..];
        var length = Math.Min(data.Length, MaxInputLength);
        data[..length].CopyTo(_input);
        return Check(opCount, endianness, length, checkWritten: false, ref random);
    }

    private int AppendNoise(int length, ref FuzzRandom random)
    {
        var count = Math.Min(MaxInputLength - length, random.Next(1, 9));
        random.Fill(_input.AsSpan(length, count));
        return count;
    }

    /// <summary>Chooses a field and writes a valid value for it at <paramref name="at"/>; returns the new length.</summary>
    private int Generate(ref ReaderOp op, Endianness endianness, int at, ref FuzzRandom random)
    {
        op = new ReaderOp { Kind = (ReaderOpKind)random.Next((int)ReaderOpKind.FixedAscii + 1) };
        var room = MaxInputLength - at;
        if (room < 200)
        {
            op.Kind = ReaderOpKind.Byte;
            if (room == 0)
            {
                return at;
            }
        }

        var output = _input.AsSpan(at);
        var width = op.FixedWidth;
        if (width > 0)
        {
            op.WrittenBits = op.Kind == ReaderOpKind.Boolean ? (ulong)random.Next(2) : random.NextUInt64() & (ulong.MaxValue >> (64 - (8 * width)));
            WriteFixed(output, width, op.WrittenBits, endianness);
            return at + width;
        }

        switch (op.Kind)
        {
            case ReaderOpKind.VarUInt32:
                var value = (uint)random.NextUInt64() >> random.Next(32);
                op.WrittenBits = value;
                return at + WriteVarUInt32(output, value);
            case ReaderOpKind.Bytes:
                op.Size = random.Next(_bytes.Length);
                random.Fill(output[..op.Size]);
                return at + op.Size;
            case ReaderOpKind.FixedUtf8 or ReaderOpKind.FixedAscii:
                var content = WriteText(output, op.Kind == ReaderOpKind.FixedAscii, ref op, ref random);
                op.ContentOffset = at;
                op.Size = content + random.Next(5);
                output[content..op.Size].Clear();
                return at + op.Size;
            default:
                op.Prefix = random.OneIn(2) ? StringLengthPrefix.UInt16 : StringLengthPrefix.VarInt;
                var prefixLength = op.Prefix == StringLengthPrefix.UInt16 ? 2 : 3;
                var textLength = WriteText(output[prefixLength..], op.Kind == ReaderOpKind.Ascii, ref op, ref random);
                op.ContentOffset = at + prefixLength;
                op.Size = op.ContentChars + random.Next(-2, 12);
                op.Size = Math.Clamp(op.Size, 0, _chars.Length);
                if (op.Prefix == StringLengthPrefix.UInt16)
                {
                    WriteFixed(output, 2, (ulong)textLength, endianness);
                }
                else
                {
                    // A non-minimal three-byte varint: the reader must accept every encoding of a count up to 5 bytes.
                    output[0] = (byte)(0x80 | (textLength & 0x7F));
                    output[1] = (byte)(0x80 | ((textLength >> 7) & 0x7F));
                    output[2] = (byte)(textLength >> 14);
                }

                return at + prefixLength + textLength;
        }
    }

    private static int WriteText(Span<byte> output, bool ascii, ref ReaderOp op, ref FuzzRandom random)
    {
        var runes = random.SkewedLength(30);
        var written = 0;
        op.ContentChars = 0;
        for (var i = 0; i < runes; i++)
        {
            var rune = Alphabet[random.Next(ascii ? 4 : Alphabet.Length)];
            written += rune.EncodeToUtf8(output[written..]);
            op.ContentChars += rune.Utf16SequenceLength;
        }

        op.ContentLength = written;
        return written;
    }

    private static void WriteFixed(Span<byte> output, int width, ulong bits, Endianness endianness)
    {
        var little = endianness == Endianness.Little;
        switch (width)
        {
            case 1:
                output[0] = (byte)bits;
                break;
            case 2 when little:
                BinaryPrimitives.WriteUInt16LittleEndian(output, (ushort)bits);
                break;
            case 2:
                BinaryPrimitives.WriteUInt16BigEndian(output, (ushort)bits);
                break;
            case 4 when little:
                BinaryPrimitives.WriteUInt32LittleEndian(output, (uint)bits);
                break;
            case 4:
                BinaryPrimitives.WriteUInt32BigEndian(output, (uint)bits);
                break;
            case 8 when little:
                BinaryPrimitives.WriteUInt64LittleEndian(output, bits);
                break;
            default:
                BinaryPrimitives.WriteUInt64BigEndian(output, bits);
                break;
        }
    }

    private static ulong ReadFixed(ReadOnlySpan<byte> input, int width, Endianness endianness) => (width, endianness) switch
    {
        (1, _) => input[0],
        (2, Endianness.Little) => BinaryPrimitives.ReadUInt16LittleEndian(input),
        (2, _) => BinaryPrimitives.ReadUInt16BigEndian(input),
        (4, Endianness.Little) => BinaryPrimitives.ReadUInt32LittleEndian(input),
        (4, _) => BinaryPrimitives.ReadUInt32BigEndian(input),
        (_, Endianness.Little) => BinaryPrimitives.ReadUInt64LittleEndian(input),
        _ => BinaryPrimitives.ReadUInt64BigEndian(input),
    };

    private static int WriteVarUInt32(Span<byte> output, uint value)
    {
        var i = 0;
        while (value >= 0x80)
        {
            output[i++] = (byte)(value | 0x80);
            value >>= 7;
        }

        output[i++] = (byte)value;
        return i;
    }

    /// <summary>An independent varint decoder: at most five bytes, the fifth carrying only the top four bits.</summary>
    private static bool DecodeVarUInt32(ReadOnlySpan<byte> input, out uint value)
    {
        value = 0;
        for (var i = 0; i < 5 && i < input.Length; i++)
        {
            if (i == 4 && input[i] > 0x0F)
            {
                break;
            }

            value |= (uint)(input[i] & 0x7F) << (7 * i);
            if (input[i] < 0x80)
            {
                return true;
            }
        }

        value = 0;
        return false;
    }

    private CaseOutcome Check(int opCount, Endianness endianness, int length, bool checkWritten, ref FuzzRandom random)
    {
        var data = _input.AsMemory(0, length);
        var sequence = _segments.Build(data, SegmentedSequence.Pick(ref random), ref random);
        long allowed = 0;
        var before = GC.GetAllocatedBytesForCurrentThread();
        var failure = ReadSpan(opCount, data.Span, endianness, ref allowed) ?? ReadSequence(opCount, sequence, endianness, ref allowed);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        if (failure is null && checkWritten)
        {
            failure = CheckWritten(opCount, length);
        }

        if (failure is null && random.OneIn(8))
        {
            allowed = long.MaxValue;
            failure = ReadThrowing(opCount, data.Span, endianness);
        }

        Array.Clear(_expectedText);
        return new CaseOutcome(failure is null ? null : $"{endianness}-endian, {opCount} fields, {length} bytes: {failure}", allocated, allowed);
    }

    private string? ReadSpan(int opCount, ReadOnlySpan<byte> data, Endianness endianness, ref long allowed)
    {
        var reader = new PacketReader(data, endianness);
        for (var i = 0; i < opCount; i++)
        {
            var consumed = reader.Consumed;
            var ok = Step(ref reader, _ops[i], out var bits, out var text);
            if (reader.Consumed + reader.Remaining != data.Length || (!ok && reader.Consumed != consumed))
            {
                return $"span, field {i} ({_ops[i].Kind}): consumed {reader.Consumed - consumed} bytes, ok {ok}, remaining {reader.Remaining}";
            }

            var oracle = CheckAgainstRawBytes(_ops[i], data[(int)consumed..], endianness, ok, bits);
            if (oracle is not null)
            {
                return $"span, field {i} ({_ops[i].Kind}) at {consumed}: {oracle}";
            }

            allowed += Allowance(_ops[i], text);
            _expectedOk[i] = ok;
            _expectedBits[i] = bits;
            _expectedText[i] = text;
            _expectedConsumed[i] = reader.Consumed;
        }

        return null;
    }

    private string? ReadSequence(int opCount, in ReadOnlySequence<byte> data, Endianness endianness, ref long allowed)
    {
        var reader = new PacketReader(data, endianness);
        for (var i = 0; i < opCount; i++)
        {
            var ok = Step(ref reader, _ops[i], out var bits, out var text);
            if (ok != _expectedOk[i] || bits != _expectedBits[i] || text != _expectedText[i] || reader.Consumed != _expectedConsumed[i])
            {
                return $"segments, field {i} ({_ops[i].Kind}): ok {ok}, consumed {reader.Consumed}; over a span ok {_expectedOk[i]}, consumed {_expectedConsumed[i]}";
            }

            allowed += Allowance(_ops[i], text);
        }

        return null;
    }

    private string? CheckWritten(int opCount, int length)
    {
        for (var i = 0; i < opCount; i++)
        {
            var op = _ops[i];
            var tooSmall = op.Kind == ReaderOpKind.Utf8IntoSpan && op.ContentChars > op.Size;
            if (!_expectedOk[i] && !tooSmall && _expectedConsumed[i] < length)
            {
                return $"field {i} ({op.Kind}) was written valid but failed to read";
            }

            if (!_expectedOk[i])
            {
                return null;
            }

            if (op.FixedWidth > 0 || op.Kind == ReaderOpKind.VarUInt32)
            {
                if (_expectedBits[i] != op.WrittenBits)
                {
                    return $"field {i} ({op.Kind}) read {_expectedBits[i]:X}, written {op.WrittenBits:X}";
                }
            }
            else if (op.ReturnsString)
            {
                var written = Encoding.UTF8.GetBytes(_expectedText[i]!, _reencoded);
                if (!_reencoded.AsSpan(0, written).SequenceEqual(_input.AsSpan(op.ContentOffset, op.ContentLength)))
                {
                    return $"field {i} ({op.Kind}) read \"{_expectedText[i]}\", not what was written";
                }
            }
        }

        return null;
    }

    private string? ReadThrowing(int opCount, ReadOnlySpan<byte> data, Endianness endianness)
    {
        var reader = new PacketReader(data, endianness);
        for (var i = 0; i < opCount; i++)
        {
            var threw = false;
            try
            {
                StepThrowing(ref reader, _ops[i]);
            }
            catch (PacketFormatException e) when (e.Offset == reader.Consumed)
            {
                threw = true;
            }

            if (threw == _expectedOk[i] || reader.Consumed != _expectedConsumed[i])
            {
                return $"Read{_ops[i].Kind} threw {threw} at field {i}; TryRead{_ops[i].Kind} returned {_expectedOk[i]}";
            }
        }

        return null;
    }

    /// <summary>The bytes a returned string may take: the string, and for fixed fields the untrimmed one before it.</summary>
    private static long Allowance(in ReaderOp op, string? text)
    {
        if (text is null)
        {
            return 0;
        }

        var allowance = 32 + (2L * text.Length);
        return op.Kind is ReaderOpKind.FixedUtf8 or ReaderOpKind.FixedAscii ? allowance + 32 + (2L * op.Size) : allowance;
    }

    private static string? CheckAgainstRawBytes(in ReaderOp op, ReadOnlySpan<byte> rest, Endianness endianness, bool ok, ulong bits)
    {
        var width = op.FixedWidth;
        if (width > 0)
        {
            var expectOk = rest.Length >= width && (op.Kind != ReaderOpKind.Boolean || rest[0] <= 1);
            if (ok != expectOk || (ok && bits != ReadFixed(rest, width, endianness)))
            {
                return $"ok {ok}, read {bits:X}; the raw bytes say ok {expectOk}";
            }
        }
        else if (op.Kind == ReaderOpKind.VarUInt32)
        {
            var expectOk = DecodeVarUInt32(rest, out var value);
            if (ok != expectOk || bits != value)
            {
                return $"ok {ok}, read {bits}; the raw bytes say ok {expectOk}, {value}";
            }
        }
        else if (op.Kind == ReaderOpKind.Bytes)
        {
            var expectOk = rest.Length >= op.Size;
            if (ok != expectOk || (ok && bits != Hash(rest[..op.Size])))
            {
                return $"ok {ok}; the raw bytes say ok {expectOk} or differ";
            }
        }

        return null;
    }

    private bool Step(ref PacketReader reader, in ReaderOp op, out ulong bits, out string? text)
    {
        text = null;
        bits = 0;
        bool ok;
        switch (op.Kind)
        {
            case ReaderOpKind.Byte:
                ok = reader.TryReadByte(out var u8);
                bits = u8;
                break;
            case ReaderOpKind.SByte:
                ok = reader.TryReadSByte(out var i8);
                bits = (byte)i8;
                break;
            case ReaderOpKind.Boolean:
                ok = reader.TryReadBoolean(out var flag);
                bits = flag ? 1u : 0u;
                break;
            case ReaderOpKind.UInt16:
                ok = reader.TryReadUInt16(out var u16);
                bits = u16;
                break;
            case ReaderOpKind.Int16:
                ok = reader.TryReadInt16(out var i16);
                bits = (ushort)i16;
                break;
            case ReaderOpKind.UInt32:
                ok = reader.TryReadUInt32(out var u32);
                bits = u32;
                break;
            case ReaderOpKind.Int32:
                ok = reader.TryReadInt32(out var i32);
                bits = (uint)i32;
                break;
            case ReaderOpKind.UInt64:
                ok = reader.TryReadUInt64(out bits);
                break;
            case ReaderOpKind.Int64:
                ok = reader.TryReadInt64(out var i64);
                bits = (ulong)i64;
                break;
            case ReaderOpKind.Single:
                ok = reader.TryReadSingle(out var f32);
                bits = BitConverter.SingleToUInt32Bits(f32);
                break;
            case ReaderOpKind.Double:
                ok = reader.TryReadDouble(out var f64);
                bits = BitConverter.DoubleToUInt64Bits(f64);
                break;
            case ReaderOpKind.VarUInt32:
                ok = reader.TryReadVarUInt32(out var v32);
                bits = v32;
                break;
            case ReaderOpKind.Bytes:
                var bytes = _bytes.AsSpan(0, op.Size);
                ok = reader.TryReadBytes(bytes);
                bits = ok ? Hash(bytes) : 0;
                break;
            case ReaderOpKind.Utf8:
                ok = reader.TryReadUtf8(out text, op.Prefix);
                break;
            case ReaderOpKind.Ascii:
                ok = reader.TryReadAscii(out text, op.Prefix);
                break;
            case ReaderOpKind.Utf8IntoSpan:
                var chars = _chars.AsSpan(0, op.Size);
                ok = reader.TryReadUtf8(chars, out var written, op.Prefix);
                bits = ok ? Hash(MemoryMarshal.AsBytes(chars[..written])) ^ (ulong)written : 0;
                break;
            case ReaderOpKind.FixedUtf8:
                ok = reader.TryReadFixedUtf8(op.Size, out text);
                break;
            default:
                ok = reader.TryReadFixedAscii(op.Size, out text);
                break;
        }

        return ok;
    }

    private void StepThrowing(ref PacketReader reader, in ReaderOp op)
    {
        switch (op.Kind)
        {
            case ReaderOpKind.Byte: reader.ReadByte(); break;
            case ReaderOpKind.SByte: reader.ReadSByte(); break;
            case ReaderOpKind.Boolean: reader.ReadBoolean(); break;
            case ReaderOpKind.UInt16: reader.ReadUInt16(); break;
            case ReaderOpKind.Int16: reader.ReadInt16(); break;
            case ReaderOpKind.UInt32: reader.ReadUInt32(); break;
            case ReaderOpKind.Int32: reader.ReadInt32(); break;
            case ReaderOpKind.UInt64: reader.ReadUInt64(); break;
            case ReaderOpKind.Int64: reader.ReadInt64(); break;
            case ReaderOpKind.Single: reader.ReadSingle(); break;
            case ReaderOpKind.Double: reader.ReadDouble(); break;
            case ReaderOpKind.VarUInt32: reader.ReadVarUInt32(); break;
            case ReaderOpKind.Bytes: reader.ReadBytes(_bytes.AsSpan(0, op.Size)); break;
            case ReaderOpKind.Utf8: reader.ReadUtf8(op.Prefix); break;
            case ReaderOpKind.Ascii: reader.ReadAscii(op.Prefix); break;
            case ReaderOpKind.Utf8IntoSpan: reader.ReadUtf8(_chars.AsSpan(0, op.Size), op.Prefix); break;
            case ReaderOpKind.FixedUtf8: reader.ReadFixedUtf8(op.Size); break;
            default: reader.ReadFixedAscii(op.Size); break;
        }
    }

    /// <summary>FNV-1a, to compare copied bytes between runs without keeping them.</summary>
    private static ulong Hash(ReadOnlySpan<byte> bytes)
    {
        var hash = 0xCBF29CE484222325UL;
        foreach (var b in bytes)
        {
            hash = (hash ^ b) * 0x100000001B3UL;
        }

        return hash;
    }
}
