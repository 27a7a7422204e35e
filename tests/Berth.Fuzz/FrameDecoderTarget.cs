using System.Buffers;
using Berth.Framing;

namespace Berth.Fuzz;

/// <summary>
/// Fuzzes <see cref="FrameDecoder"/> in every length-field layout and preset. Each case decodes one input contiguous
/// and cut into segments, and holds every step to an oracle computed from the raw bytes: the same result, the same
/// body, the buffer untouched unless a frame was returned, and the frame re-encoded by <see cref="FrameEncoder"/>
/// equal to the bytes consumed. Nothing may allocate.
/// </summary>
internal sealed class FrameDecoderTarget : IFuzzTarget
{
    private const int MaxInputLength = 2048;
    private const int MaxEverySplitLength = 160;

    private readonly FrameVariant[] _variants = FrameVariant.All();
    private readonly byte[] _input = new byte[MaxInputLength];
    private readonly SegmentedSequence _segments = new(MaxInputLength);
    private readonly ArrayBufferWriter<byte> _reencoded = new(MaxInputLength + 8);

    public string Name => "decoder";

    public IReadOnlyList<FrameVariant> Variants => _variants;

    public CaseOutcome Run(ulong caseSeed)
    {
        var random = new FuzzRandom(caseSeed);
        var variant = _variants[random.Next(_variants.Length)];
        var length = Generate(variant, ref random);
        return Check(variant, length, ref random);
    }

    public CaseOutcome RunRaw(ReadOnlySpan<byte> raw)
    {
        if (raw.Length < 2)
        {
            return default;
        }

        var variant = _variants[raw[0] % _variants.Length];
        var random = new FuzzRandom(raw[1]);
        var data = raw[2..];
        var length = Math.Min(data.Length, MaxInputLength);
        data[..length].CopyTo(_input);
        return Check(variant, length, ref random);
    }

    private int Generate(FrameVariant variant, ref FuzzRandom random)
    {
        if (random.OneIn(10))
        {
            var noise = random.SkewedLength(256);
            random.Fill(_input.AsSpan(0, noise));
            return noise;
        }

        var length = 0;
        var frames = random.Next(6);
        for (var i = 0; i < frames; i++)
        {
            var room = MaxInputLength - 8 - length - variant.HeaderLength;
            var bodyLength = Math.Min(random.SkewedLength(variant.Format.MaxBodyLength), room);
            if (bodyLength < variant.MinBodyLength)
            {
                break;
            }

            variant.Format.WriteHeader(_input.AsSpan(length), bodyLength);
            length += variant.HeaderLength;
            random.Fill(_input.AsSpan(length, bodyLength));
            length += bodyLength;
        }

        if (random.OneIn(6))
        {
            length += WriteHugeHeader(variant, length, ref random);
        }

        return random.OneIn(3) ? length : InputMutator.Mutate(_input, length, ref random);
    }

    /// <summary>Appends a header announcing an impossible or excessive length: max + 1, all ones, below the header.</summary>
    private int WriteHugeHeader(FrameVariant variant, int at, ref FuzzRandom random)
    {
        var max = (uint)variant.Format.MaxBodyLength + variant.Bias;
        var announced = random.Next(4) switch
        {
            0 => max + 1,
            1 => uint.MaxValue,
            2 => variant.Bias == 0 ? 0x80000000u : variant.Bias - 1,
            _ => max,
        };
        variant.WriteAnnounced(_input.AsSpan(at), announced);
        return variant.HeaderLength;
    }

    private CaseOutcome Check(FrameVariant variant, int length, ref FuzzRandom random)
    {
        var data = _input.AsMemory(0, length);
        var everySplit = length <= MaxEverySplitLength && random.OneIn(8);
        var segmentation = SegmentedSequence.Pick(ref random);
        var before = GC.GetAllocatedBytesForCurrentThread();
        var failure = CheckStream(variant, new ReadOnlySequence<byte>(data), "contiguous")
            ?? CheckStream(variant, _segments.Build(data, segmentation, ref random), SegmentationName(segmentation));
        for (var cut = 0; everySplit && failure is null && cut <= length; cut++)
        {
            failure = CheckStream(variant, _segments.SplitAt(data, cut), "two segments, every cut");
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        return new CaseOutcome(failure is null ? null : $"{variant.Name}, {length} bytes: {failure}", allocated, 0);
    }

    private static string SegmentationName(Segmentation segmentation) => segmentation switch
    {
        Segmentation.Single => "one segment",
        Segmentation.TwoAtRandomPoint => "two segments",
        Segmentation.ByteAtATime => "byte at a time",
        _ => "random chunks",
    };

    private string? CheckStream(FrameVariant variant, ReadOnlySequence<byte> buffer, string cut)
    {
        var data = _input.AsSpan(0, (int)buffer.Length);
        var offset = 0;
        var maxSteps = (data.Length / variant.HeaderLength) + 2;
        for (var step = 0; step < maxSteps; step++)
        {
            var start = buffer.Start;
            var remaining = buffer.Length;
            var result = variant.Decoder.TryReadFrame(ref buffer, out var body);
            var (expected, alternative, bodyLength) = Expect(variant, data[offset..]);
            if (result != expected && result != alternative)
            {
                return Describe(cut, offset, $"returned {result}, expected {expected}");
            }

            if (result != FrameReadResult.Frame)
            {
                return buffer.Length == remaining && buffer.Start.Equals(start)
                    ? null
                    : Describe(cut, offset, $"{result} moved the buffer");
            }

            var frameLength = variant.HeaderLength + bodyLength;
            if (body.Length != bodyLength || buffer.Length != remaining - frameLength)
            {
                return Describe(cut, offset, $"frame of {body.Length} bytes left {buffer.Length}, expected {bodyLength} and {remaining - frameLength}");
            }

            if (!SameBytes(body, data.Slice(offset + variant.HeaderLength, bodyLength)))
            {
                return Describe(cut, offset, "body differs from the bytes after the header");
            }

            var reencoded = Reencode(variant, body);
            if (!reencoded.SequenceEqual(data.Slice(offset, frameLength)))
            {
                return Describe(cut, offset, "re-encoded frame differs from the bytes consumed");
            }

            offset += frameLength;
        }

        return Describe(cut, offset, $"still returning frames after {maxSteps} calls");
    }

    /// <summary>
    /// The oracle: what a decoder must answer for <paramref name="rest"/>. A body below the minimum is malformed, and
    /// may also be reported incomplete while it has not all arrived.
    /// </summary>
    private static (FrameReadResult Expected, FrameReadResult Alternative, int BodyLength) Expect(FrameVariant variant, ReadOnlySpan<byte> rest)
    {
        if (rest.Length < variant.HeaderLength)
        {
            return (FrameReadResult.Incomplete, FrameReadResult.Incomplete, 0);
        }

        var announced = variant.ReadAnnounced(rest);
        if (announced < variant.Bias)
        {
            return (FrameReadResult.Malformed, FrameReadResult.Malformed, 0);
        }

        var bodyLength = announced - variant.Bias;
        if (bodyLength > (uint)variant.Format.MaxBodyLength)
        {
            return (FrameReadResult.TooLarge, FrameReadResult.TooLarge, 0);
        }

        var complete = rest.Length - variant.HeaderLength >= bodyLength;
        if (bodyLength < (uint)variant.MinBodyLength)
        {
            return (FrameReadResult.Malformed, complete ? FrameReadResult.Malformed : FrameReadResult.Incomplete, 0);
        }

        return complete
            ? (FrameReadResult.Frame, FrameReadResult.Frame, (int)bodyLength)
            : (FrameReadResult.Incomplete, FrameReadResult.Incomplete, 0);
    }

    private ReadOnlySpan<byte> Reencode(FrameVariant variant, in ReadOnlySequence<byte> body)
    {
        _reencoded.ResetWrittenCount();
        if (body.IsSingleSegment)
        {
            variant.Encoder.WriteFrame(_reencoded, body.FirstSpan);
        }
        else
        {
            variant.Encoder.WriteFrame(_reencoded, body);
        }

        return _reencoded.WrittenSpan;
    }

    private static bool SameBytes(in ReadOnlySequence<byte> sequence, ReadOnlySpan<byte> expected)
    {
        foreach (var memory in sequence)
        {
            if (!memory.Span.SequenceEqual(expected[..memory.Length]))
            {
                return false;
            }

            expected = expected[memory.Length..];
        }

        return expected.IsEmpty;
    }

    private static string Describe(string cut, int offset, string what) => $"{cut}, frame at offset {offset}: {what}";
}
