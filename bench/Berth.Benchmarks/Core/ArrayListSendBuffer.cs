using Berth.Buffers;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The send queue's own buffer before it was folded into <see cref="PooledBufferWriter"/>, kept as the baseline the
/// single type must not lose to: a list of pooled arrays and their fill counts, with a frame counter and a mark that
/// takes a frame back whole.
/// </summary>
internal sealed class ArrayListSendBuffer : IStableBufferWriter
{
    private readonly BufferPool _pool;
    private readonly int _segmentSize;
    private byte[][] _arrays = new byte[8][];
    private int[] _counts = new int[8];
    private int _segments;

    public ArrayListSendBuffer(BufferPool pool, int segmentSize)
    {
        _pool = pool;
        _segmentSize = segmentSize;
    }

    /// <summary>Bytes written.</summary>
    public long Length { get; private set; }

    /// <summary>Whole frames written (counted by <see cref="FrameWritten"/>).</summary>
    public int Frames { get; private set; }

    /// <summary>Arrays in use.</summary>
    public int SegmentCount => _segments;

    public ArraySegment<byte> Segment(int index) => new(_arrays[index], 0, _counts[index]);

    public void FrameWritten() => Frames++;

    public void Advance(int count)
    {
        if (count == 0)
        {
            return;
        }

        var last = _segments - 1;
        if (last < 0 || (uint)count > (uint)(_arrays[last].Length - _counts[last]))
        {
            throw new ArgumentOutOfRangeException(nameof(count), count, "Advanced past the span that GetSpan returned.");
        }

        _counts[last] += count;
        Length += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        var last = SegmentWithRoom(sizeHint);
        return _arrays[last].AsMemory(_counts[last]);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        var last = SegmentWithRoom(sizeHint);
        return _arrays[last].AsSpan(_counts[last]);
    }

    public ArrayListSendBufferMark Mark() =>
        new(_segments, _segments == 0 ? 0 : _counts[_segments - 1], Length, Frames);

    /// <summary>Forgets everything written after <paramref name="mark"/>, returning arrays rented since.</summary>
    public void Rollback(ArrayListSendBufferMark mark)
    {
        while (_segments > mark.Segments)
        {
            _segments--;
            _pool.Return(_arrays[_segments]);
            _arrays[_segments] = null!;
        }

        if (_segments > 0)
        {
            _counts[_segments - 1] = mark.LastCount;
        }

        Length = mark.Length;
        Frames = mark.Frames;
    }

    /// <summary>Returns every array to the pool; the buffer is empty and reusable.</summary>
    public void Reset() => Rollback(default);

    private int SegmentWithRoom(int sizeHint)
    {
        var needed = Math.Max(sizeHint, 1);
        var last = _segments - 1;
        if (last >= 0 && _arrays[last].Length - _counts[last] >= needed)
        {
            return last;
        }

        if (_segments == _arrays.Length)
        {
            Array.Resize(ref _arrays, _segments * 2);
            Array.Resize(ref _counts, _segments * 2);
        }

        _arrays[_segments] = _pool.Rent(Math.Max(needed, _segmentSize));
        _counts[_segments] = 0;
        return _segments++;
    }
}

/// <summary>A position in an <see cref="ArrayListSendBuffer"/> to roll back to.</summary>
internal readonly record struct ArrayListSendBufferMark(int Segments, int LastCount, long Length, int Frames);
