using System.Buffers;

namespace Berth.Fuzz;

/// <summary>How an input is cut into the segments of a <see cref="ReadOnlySequence{T}"/>.</summary>
internal enum Segmentation
{
    /// <summary>One contiguous segment.</summary>
    Single,

    /// <summary>Two segments, cut at one random point.</summary>
    TwoAtRandomPoint,

    /// <summary>One byte per segment.</summary>
    ByteAtATime,

    /// <summary>Segments of 0 to 8 bytes, empty ones included.</summary>
    RandomChunks,
}

/// <summary>
/// Builds multi-segment sequences over one input from segments allocated once, so that cutting an input differently
/// in every case allocates nothing.
/// </summary>
internal sealed class SegmentedSequence
{
    private readonly Segment[] _segments;

    /// <summary>Creates room for inputs up to <paramref name="maxLength"/> bytes cut into any number of segments.</summary>
    public SegmentedSequence(int maxLength)
    {
        // Random chunks may be empty: allow two segments per byte and a few more.
        _segments = new Segment[2 * maxLength + 8];
        for (var i = 0; i < _segments.Length; i++)
        {
            _segments[i] = new Segment();
        }
    }

    public static Segmentation Pick(ref FuzzRandom random) => (Segmentation)random.Next(4);

    public ReadOnlySequence<byte> Build(ReadOnlyMemory<byte> data, Segmentation segmentation, ref FuzzRandom random) =>
        segmentation switch
        {
            Segmentation.Single => new ReadOnlySequence<byte>(data),
            Segmentation.TwoAtRandomPoint => SplitAt(data, random.Next(data.Length + 1)),
            Segmentation.ByteAtATime => ByteAtATime(data),
            _ => RandomChunks(data, ref random),
        };

    /// <summary>Two segments: the first <paramref name="cut"/> bytes, then the rest.</summary>
    public ReadOnlySequence<byte> SplitAt(ReadOnlyMemory<byte> data, int cut)
    {
        var first = _segments[0].Reset(data[..cut], 0);
        var last = first.Append(_segments[1], data[cut..]);
        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private ReadOnlySequence<byte> ByteAtATime(ReadOnlyMemory<byte> data)
    {
        if (data.Length < 2)
        {
            return SplitAt(data, data.Length);
        }

        var first = _segments[0].Reset(data[..1], 0);
        var last = first;
        for (var i = 1; i < data.Length; i++)
        {
            last = last.Append(_segments[i], data.Slice(i, 1));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private ReadOnlySequence<byte> RandomChunks(ReadOnlyMemory<byte> data, ref FuzzRandom random)
    {
        var length = Math.Min(data.Length, random.Next(9));
        var first = _segments[0].Reset(data[..length], 0);
        var last = first;
        var offset = length;
        var used = 1;
        while (offset < data.Length && used < _segments.Length - 1)
        {
            length = Math.Min(data.Length - offset, random.Next(9));
            last = last.Append(_segments[used++], data.Slice(offset, length));
            offset += length;
        }

        if (offset < data.Length)
        {
            last = last.Append(_segments[used], data[offset..]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment Reset(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
            Next = null;
            return this;
        }

        public Segment Append(Segment next, ReadOnlyMemory<byte> memory)
        {
            next.Reset(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
