using System.Buffers;
using System.Runtime.CompilerServices;

namespace Berth.Buffers;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over a chain of pooled arrays. Written bytes never move (a new array is
/// chained instead of growing and copying), so lengths can be backfilled and the arrays handed to a gather send as
/// they are. <see cref="Reset"/> and <see cref="Dispose"/> return every array to the pool.
/// </summary>
/// <remarks>
/// The arrays and their fill counts live in two parallel arrays rather than a linked list of segments, so appending
/// touches no object besides the current array, and a send walks them by index. The segment objects a
/// <see cref="ReadOnlySequence{T}"/> needs are built only when <see cref="WrittenSequence"/> is read. A connection's
/// send queue is two of these, one filling while the other is written.
/// <para>
/// A segment may also be lent (<see cref="Lend"/>): bytes of someone else's array, recorded where they lie instead of
/// copied. Nothing is ever written into a lent array and it never goes to the pool; the lender's bytes must stay as
/// they are until <see cref="OwnLent"/> copied them into pooled arrays or the writer was reset. Where lent segments begin
/// is kept in one more array, rented at the first loan and returned when the last loan ends, so a writer holds it
/// only while it refers to a lender's bytes: an idle connection keeps nothing for having echoed from its ring.
/// </para>
/// </remarks>
public sealed class PooledBufferWriter : IStableBufferWriter, IDisposable
{
    /// <summary>Default size of each pooled array.</summary>
    public const int DefaultSegmentSize = 4096;

    private readonly BufferPool _pool;
    private readonly int _segmentSize;
    private byte[][] _arrays = new byte[8][];
    private int[] _counts = new int[8];
    private int _segments;
    // Per segment: 0 for an array of the pool's, the offset plus one for a lent one. Null while nothing is lent.
    private int[]? _starts;
    private int _lentSegments;
    private BufferSegment[] _sequence = [];
    private int _sealed;

    /// <summary>Creates a writer that rents arrays of <paramref name="segmentSize"/> bytes from <paramref name="pool"/>.</summary>
    public PooledBufferWriter(BufferPool? pool = null, int segmentSize = DefaultSegmentSize)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(segmentSize, 16);
        _pool = pool ?? BufferPool.Shared;
        _segmentSize = segmentSize;
    }

    /// <summary>Bytes written and advanced so far.</summary>
    public long WrittenCount { get; private set; }

    /// <summary>The written bytes, valid until the next write, <see cref="Reset"/> or <see cref="Dispose"/>.</summary>
    public ReadOnlySequence<byte> WrittenSequence
    {
        get
        {
            if (_segments == 0)
            {
                return ReadOnlySequence<byte>.Empty;
            }

            if (_segments == 1)
            {
                return new ReadOnlySequence<byte>(_arrays[0], Start(0), _counts[0]);
            }

            if (_sequence.Length < _segments)
            {
                Array.Resize(ref _sequence, _arrays.Length);
            }

            long runningIndex = 0;
            for (var i = 0; i < _segments; i++)
            {
                var segment = _sequence[i] ??= new BufferSegment();
                segment.Attach(_arrays[i], Start(i), _counts[i]);
                segment.SetNext(i + 1 < _segments ? _sequence[i + 1] ??= new BufferSegment() : null);
                segment.Seal(runningIndex);
                runningIndex += _counts[i];
            }

            _sealed = Math.Max(_sealed, _segments);
            var last = _sequence[_segments - 1];
            return new ReadOnlySequence<byte>(_sequence[0], 0, last, last.Count);
        }
    }

    /// <summary>Arrays in use.</summary>
    internal int SegmentCount => _segments;

    /// <summary>True while some segment is lent (see <see cref="Lend"/>) and not yet copied by <see cref="OwnLent"/>.</summary>
    internal bool HasLent => _lentSegments > 0;

    /// <inheritdoc />
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
        WrittenCount += count;
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        var last = SegmentWithRoom(sizeHint);
        return _arrays[last].AsMemory(_counts[last]);
    }

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        var last = SegmentWithRoom(sizeHint);
        return _arrays[last].AsSpan(_counts[last]);
    }

    /// <summary>Returns every array to the pool; the writer can be used again.</summary>
    public void Reset() => Rollback(default);

    /// <inheritdoc />
    public void Dispose() => Reset();

    /// <summary>The written bytes of array <paramref name="index"/>, for a gather send.</summary>
    internal ArraySegment<byte> Segment(int index) => new(_arrays[index], Start(index), _counts[index]);

    /// <summary>
    /// Appends <paramref name="count"/> bytes of <paramref name="array"/> from <paramref name="offset"/> without copying
    /// them: the writer refers to the caller's bytes, which must not change until <see cref="OwnLent"/> or
    /// <see cref="Reset"/>. Bytes that directly follow the previous loan from the same array extend it, so a run of
    /// adjacent loans is one segment.
    /// </summary>
    internal void Lend(byte[] array, int offset, int count)
    {
        var last = _segments - 1;
        if (last >= 0 && IsLent(last) && ReferenceEquals(_arrays[last], array) && Start(last) + _counts[last] == offset)
        {
            _counts[last] += count;
            WrittenCount += count;
            return;
        }

        var index = NewSegment();
        _starts ??= RentStarts(_arrays.Length);
        _arrays[index] = array;
        _starts[index] = offset + 1;
        _counts[index] = count;
        _lentSegments++;
        WrittenCount += count;
    }

    /// <summary>Copies every lent segment into a pooled array of its own, in place, so the writer no longer refers to a lender's bytes.</summary>
    internal void OwnLent()
    {
        for (var i = 0; _lentSegments > 0 && i < _segments; i++)
        {
            if (!IsLent(i))
            {
                continue;
            }

            var copy = _pool.Rent(Math.Max(_counts[i], _segmentSize));
            _arrays[i].AsSpan(Start(i), _counts[i]).CopyTo(copy);
            _arrays[i] = copy;
            _starts![i] = 0;
            _lentSegments--;
        }

        ReturnStartsAfterLastLoan();
    }

    /// <summary>The current end of the written bytes, to <see cref="Rollback"/> to.</summary>
    internal PooledBufferWriterMark Mark() => new(_segments, _segments == 0 ? 0 : _counts[_segments - 1], WrittenCount);

    /// <summary>Forgets everything written after <paramref name="mark"/>, returning the arrays rented since.</summary>
    internal void Rollback(PooledBufferWriterMark mark)
    {
        while (_segments > mark.Segments)
        {
            _segments--;
            if (IsLent(_segments))
            {
                // The lender's array: dropped, never returned to the pool.
                _starts![_segments] = 0;
                _lentSegments--;
            }
            else
            {
                _pool.Return(_arrays[_segments]);
            }

            _arrays[_segments] = null!;
        }

        if (_segments > 0)
        {
            _counts[_segments - 1] = mark.LastCount;
        }

        ReturnStartsAfterLastLoan();
        WrittenCount = mark.Length;
        if (_segments == 0)
        {
            ForgetSequence();
        }
    }

    /// <summary>Lets the sequence's segments drop the arrays they showed, which are back in the pool.</summary>
    private void ForgetSequence()
    {
        for (var i = 0; i < _sealed; i++)
        {
            _sequence[i].Detach();
        }

        _sealed = 0;
    }

    /// <summary>Where segment <paramref name="index"/>'s bytes begin in its array: 0 unless it is lent.</summary>
    // This and IsLent run for every frame an echo lends; a NativeAOT build, having no profile, inlines them only if told.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int Start(int index) => IsLent(index) ? _starts![index] - 1 : 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsLent(int index) => _starts is not null && _starts[index] != 0;

    private static int[] RentStarts(int length)
    {
        var starts = ArrayPool<int>.Shared.Rent(length);
        Array.Clear(starts);
        return starts;
    }

    private void ReturnStartsAfterLastLoan()
    {
        if (_lentSegments == 0 && _starts is not null)
        {
            ArrayPool<int>.Shared.Return(_starts);
            _starts = null;
        }
    }

    private int SegmentWithRoom(int sizeHint)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        var needed = Math.Max(sizeHint, 1);
        var last = _segments - 1;
        if (last >= 0 && _arrays[last].Length - _counts[last] >= needed && !IsLent(last))
        {
            return last;
        }

        var index = NewSegment();
        _arrays[index] = _pool.Rent(Math.Max(needed, _segmentSize));
        _counts[index] = 0;
        return index;
    }

    /// <summary>Makes room for one more segment and returns its index; the caller fills it.</summary>
    private int NewSegment()
    {
        if (_segments == _arrays.Length)
        {
            Array.Resize(ref _arrays, _segments * 2);
            Array.Resize(ref _counts, _segments * 2);
            if (_starts is not null && _starts.Length < _arrays.Length)
            {
                var starts = RentStarts(_arrays.Length);
                _starts.AsSpan(0, _segments).CopyTo(starts);
                ArrayPool<int>.Shared.Return(_starts);
                _starts = starts;
            }
        }

        return _segments++;
    }
}
