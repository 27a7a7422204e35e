using System.Buffers;
using Berth.Buffers;
using Berth.Messages;

namespace Berth.Fuzz.Messages;

/// <summary>Draws a random valid message from a case's random stream.</summary>
internal delegate T MessageMaker<out T>(ref FuzzRandom random);

/// <summary>
/// Fuzzes the generated reader of one contract: a random valid message is encoded, often damaged, and read once over a
/// span and once over the same bytes cut into segments. Only <see cref="MessageFormatException"/> may escape; both reads
/// must agree (the same re-encoding, or the same fault, field and offset); an undamaged body must read back to what was
/// written; whatever reads must re-encode to bytes that read back the same. A contract of fixed-width fields may
/// allocate only when it fails; any other may allocate at most a bounded multiple of the input's length.
/// </summary>
internal sealed class MessageReaderTarget<T> : IFuzzTarget
    where T : IMessage<T>
{
    /// <summary>Bytes a read may allocate per input byte: a one-character string or a one-byte array costs about 32 B for 2.</summary>
    private const int AllocationPerInputByte = 64;

    /// <summary>Room for one exception with its message and stack trace, and the first array a collection allocates.</summary>
    private const int AllocationPerRead = 16 * 1024;

    private readonly MessageMaker<T> _make;
    private readonly bool _fixedWidth;
    private readonly byte[] _input;
    private readonly SegmentedSequence _segments;
    private readonly ArrayBufferWriter<byte> _encoded = new(8192);
    private readonly ArrayBufferWriter<byte> _reencoded = new(8192);

    public MessageReaderTarget(string name, MessageMaker<T> make, bool fixedWidth)
    {
        Name = name;
        _make = make;
        _fixedWidth = fixedWidth;
        _input = new byte[T.Bounds.MaxEncodedSize + 64];
        _segments = new SegmentedSequence(_input.Length);
    }

    public string Name { get; }

    public CaseOutcome Run(ulong caseSeed)
    {
        var random = new FuzzRandom(caseSeed);
        var message = _make(ref random);
        Encode(_encoded, message);
        var length = _encoded.WrittenCount;
        _encoded.WrittenSpan.CopyTo(_input);

        var intact = random.OneIn(3);
        if (!intact)
        {
            length = InputMutator.Mutate(_input, Math.Min(length, _input.Length - 16), ref random);
        }

        return Check(length, intact, ref random);
    }

    public CaseOutcome RunRaw(ReadOnlySpan<byte> raw)
    {
        if (raw.Length < 1)
        {
            return default;
        }

        var random = new FuzzRandom(raw[0]);
        var length = Math.Min(raw.Length - 1, _input.Length);
        raw.Slice(1, length).CopyTo(_input);
        return Check(length, intact: false, ref random);
    }

    private CaseOutcome Check(int length, bool intact, ref FuzzRandom random)
    {
        var data = _input.AsMemory(0, length);
        var sequence = _segments.Build(data, SegmentedSequence.Pick(ref random), ref random);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var overSpan = Read(data.Span);
        var overSegments = Read(sequence);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        var failed = overSpan.Error is not null || overSegments.Error is not null;
        var allowed = _fixedWidth && !failed ? 0 : 2 * ((AllocationPerInputByte * (long)length) + AllocationPerRead);
        var failure = Verify(overSpan, overSegments, intact);
        return new CaseOutcome(failure is null ? null : $"{length} bytes, intact {intact}: {failure}", allocated, allowed);
    }

    private string? Verify(in ReadResult overSpan, in ReadResult overSegments, bool intact)
    {
        if ((overSpan.Unexpected ?? overSegments.Unexpected) is { } unexpected)
        {
            return $"threw {unexpected.GetType().Name}: {unexpected.Message}";
        }

        if (overSpan.Error is { } spanError)
        {
            var segmentError = overSegments.Error;
            if (segmentError is null || segmentError.Fault != spanError.Fault || segmentError.Field != spanError.Field || segmentError.Offset != spanError.Offset)
            {
                return $"over a span: {spanError.Message}; over segments: {segmentError?.Message ?? "read"}";
            }

            return intact ? $"an undamaged body failed: {spanError.Message}" : null;
        }

        if (overSegments.Error is { } onlySegments)
        {
            return $"read over a span, failed over segments: {onlySegments.Message}";
        }

        Encode(_reencoded, overSpan.Value!);
        var spanBytes = _reencoded.WrittenSpan.ToArray();
        Encode(_reencoded, overSegments.Value!);
        if (!_reencoded.WrittenSpan.SequenceEqual(spanBytes))
        {
            return "the reads over a span and over segments differ";
        }

        if (intact && !_encoded.WrittenSpan.SequenceEqual(spanBytes))
        {
            return "an undamaged body read back to another message";
        }

        var again = Read(spanBytes);
        if (again.Value is null)
        {
            return $"a re-encoded message did not read: {again.Error?.Message ?? again.Unexpected?.Message}";
        }

        Encode(_reencoded, again.Value);
        return _reencoded.WrittenSpan.SequenceEqual(spanBytes) ? null : "a re-encoded message read back to another";
    }

    private static ReadResult Read(ReadOnlySpan<byte> body)
    {
        try
        {
            var reader = new PacketReader(body, T.ByteOrder);
            return new ReadResult(T.Read(ref reader), null, null);
        }
        catch (MessageFormatException e)
        {
            return new ReadResult(default, e, null);
        }
        catch (Exception e)
        {
            return new ReadResult(default, null, e);
        }
    }

    private static ReadResult Read(in ReadOnlySequence<byte> body)
    {
        try
        {
            var reader = new PacketReader(body, T.ByteOrder);
            return new ReadResult(T.Read(ref reader), null, null);
        }
        catch (MessageFormatException e)
        {
            return new ReadResult(default, e, null);
        }
        catch (Exception e)
        {
            return new ReadResult(default, null, e);
        }
    }

    private static void Encode(ArrayBufferWriter<byte> output, in T message)
    {
        output.ResetWrittenCount();
        var writer = new PacketWriter(output, T.ByteOrder);
        T.Write(ref writer, message);
        writer.Flush();
    }

    private readonly record struct ReadResult(T? Value, MessageFormatException? Error, Exception? Unexpected);
}
