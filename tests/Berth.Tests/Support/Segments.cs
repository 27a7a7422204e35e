using System.Buffers;

namespace Berth.Tests.Support;

/// <summary>Builds multi-segment sequences so parsers meet fields that straddle segment boundaries.</summary>
internal static class Segments
{
    /// <summary>Splits <paramref name="data"/> at the given offsets (ascending, may repeat to make empty segments).</summary>
    public static ReadOnlySequence<byte> Split(ReadOnlyMemory<byte> data, params int[] cuts)
    {
        if (cuts.Length == 0)
        {
            return new ReadOnlySequence<byte>(data);
        }

        var first = new Segment(data[..cuts[0]], 0);
        var last = first;
        for (var i = 0; i < cuts.Length; i++)
        {
            var end = i + 1 < cuts.Length ? cuts[i + 1] : data.Length;
            last = last.Append(data[cuts[i]..end]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    /// <summary>One segment per byte: the worst case for a parser.</summary>
    public static ReadOnlySequence<byte> OneBytePerSegment(ReadOnlyMemory<byte> data) =>
        data.Length <= 1 ? new ReadOnlySequence<byte>(data) : Split(data, Enumerable.Range(1, data.Length - 1).ToArray());

    /// <summary>All of <paramref name="data"/> in one segment of a segment chain: not an array run, so a parser takes its general path.</summary>
    public static ReadOnlySequence<byte> OneSegment(ReadOnlyMemory<byte> data)
    {
        var segment = new Segment(data, 0);
        return new ReadOnlySequence<byte>(segment, 0, segment, data.Length);
    }

    /// <summary>
    /// <paramref name="data"/> as one run in the middle of a larger array, as a receive ring delivers it: the bytes
    /// around the run are not part of the sequence, so a parser that reads past either end reads them.
    /// </summary>
    public static ReadOnlySequence<byte> MidArrayRun(ReadOnlySpan<byte> data)
    {
        var array = new byte[data.Length + 6];
        array.AsSpan().Fill(0xEE);
        data.CopyTo(array.AsSpan(3));
        return new ReadOnlySequence<byte>(array, 3, data.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Segment Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Segment(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}
