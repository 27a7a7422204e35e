using Berth.Buffers;

namespace Berth.Tcp.Send;

/// <summary>
/// Frames waiting to be sent, in a chain of pooled arrays. Written bytes never move, so a length field can be
/// backfilled and the arrays handed to a gather send as they are. A <see cref="Mark"/> taken before a frame lets a
/// failed or oversized frame be taken back whole.
/// </summary>
internal sealed class SendBuffer : IStableBufferWriter
{
    private readonly BufferPool _pool;
    private readonly int _segmentSize;
    private byte[][] _arrays = new byte[8][];
    private int[] _counts = new int[8];
    private int _segments;

    public SendBuffer(BufferPool pool, int segmentSize)
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

    public SendBufferMark Mark() =>
        new(_segments, _segments == 0 ? 0 : _counts[_segments - 1], Length, Frames);

    /// <summary>Forgets everything written after <paramref name="mark"/>, returning arrays rented since.</summary>
    public void Rollback(SendBufferMark mark)
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
