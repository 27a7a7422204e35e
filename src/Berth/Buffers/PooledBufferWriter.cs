using System.Buffers;

namespace Berth.Buffers;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over a chain of pooled arrays. Written bytes never move (a new array is
/// chained instead of growing and copying), so lengths can be backfilled and the result handed to a gather
/// send as it is. <see cref="Reset"/> and <see cref="Dispose"/> return every array to the pool.
/// </summary>
public sealed class PooledBufferWriter : IStableBufferWriter, IDisposable
{
    /// <summary>Default size of each pooled array.</summary>
    public const int DefaultSegmentSize = 4096;

    private readonly BufferPool _pool;
    private readonly int _segmentSize;
    private BufferSegment? _first;
    private BufferSegment? _last;
    private BufferSegment? _spare;
    private long _written;

    /// <summary>Creates a writer that rents arrays of <paramref name="segmentSize"/> bytes from <paramref name="pool"/>.</summary>
    public PooledBufferWriter(BufferPool? pool = null, int segmentSize = DefaultSegmentSize)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(segmentSize, 16);
        _pool = pool ?? BufferPool.Shared;
        _segmentSize = segmentSize;
    }

    /// <summary>Bytes written and advanced so far.</summary>
    public long WrittenCount => _written;

    /// <summary>The written bytes, valid until the next write, <see cref="Reset"/> or <see cref="Dispose"/>.</summary>
    public ReadOnlySequence<byte> WrittenSequence
    {
        get
        {
            if (_first is null)
            {
                return ReadOnlySequence<byte>.Empty;
            }

            if (_first == _last)
            {
                return new ReadOnlySequence<byte>(_first.Array, _first.Start, _first.Count);
            }

            long runningIndex = 0;
            for (var segment = _first; segment is not null; segment = segment.NextSegment)
            {
                segment.Seal(runningIndex);
                runningIndex += segment.Count;
            }

            return new ReadOnlySequence<byte>(_first, 0, _last!, _last!.Count);
        }
    }

    /// <inheritdoc />
    public void Advance(int count)
    {
        if ((uint)count > (uint)(_last?.Free ?? 0))
        {
            throw new ArgumentOutOfRangeException(nameof(count), count, "Advanced past the span that GetSpan returned.");
        }

        if (count == 0)
        {
            return;
        }

        _last!.Count += count;
        _written += count;
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        var segment = SegmentWithRoom(sizeHint);
        return segment.Array.AsMemory(segment.Start + segment.Count);
    }

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        var segment = SegmentWithRoom(sizeHint);
        return segment.Array.AsSpan(segment.Start + segment.Count);
    }

    /// <summary>Returns every array to the pool; the writer can be used again.</summary>
    public void Reset()
    {
        var segment = _first;
        while (segment is not null)
        {
            var next = segment.NextSegment;
            _pool.Return(segment.Detach());
            segment.SetNext(_spare);
            _spare = segment;
            segment = next;
        }

        _first = null;
        _last = null;
        _written = 0;
    }

    /// <inheritdoc />
    public void Dispose() => Reset();

    private BufferSegment SegmentWithRoom(int sizeHint)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        var needed = Math.Max(sizeHint, 1);
        if (_last is not null && _last.Free >= needed)
        {
            return _last;
        }

        var segment = _spare ?? new BufferSegment();
        _spare = segment.NextSegment;
        segment.SetNext(null);
        segment.Attach(_pool.Rent(Math.Max(needed, _segmentSize)));

        if (_last is null)
        {
            _first = segment;
        }
        else
        {
            _last.SetNext(segment);
        }

        _last = segment;
        return segment;
    }
}
