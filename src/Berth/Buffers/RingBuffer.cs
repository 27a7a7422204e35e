using System.Buffers;

namespace Berth.Buffers;

/// <summary>
/// Received bytes waiting to be parsed, in one pooled array used as a ring. Readers see the bytes as a
/// <see cref="ReadOnlySequence{T}"/> of one segment, or two across the wrap; writers get the free space in front
/// of the data. It rents its array at the first write, grows by swapping in a larger pooled array (so it allocates
/// nothing once the pool is warm), never past its maximum; <see cref="TrimExcess"/> gives the larger array back when
/// the data is gone, and <see cref="ReturnWhenEmpty"/> gives the array back altogether until the next write.
/// </summary>
internal sealed class RingBuffer : IDisposable
{
    private readonly BufferPool _pool;
    private readonly int _initialCapacity;
    // Made at the first wrap, once per ring: a connection that stays idle never needs them.
    private BufferSegment? _beforeWrap;
    private BufferSegment? _afterWrap;
    private byte[] _buffer = [];
    private int _capacity;
    private int _head;
    private int _length;
    private bool _disposed;

    /// <summary>
    /// Creates a ring of at least <paramref name="initialCapacity"/> bytes that may grow to <paramref name="maxCapacity"/>;
    /// its array is rented at the first write.
    /// </summary>
    public RingBuffer(int initialCapacity, int maxCapacity, BufferPool? pool = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(initialCapacity, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxCapacity, initialCapacity);
        _pool = pool ?? BufferPool.Shared;
        _initialCapacity = initialCapacity;
        MaxCapacity = maxCapacity;
    }

    /// <summary>Bytes waiting to be read.</summary>
    public int Length => _length;

    /// <summary>Bytes the ring holds without growing; 0 while it holds no array.</summary>
    public int Capacity => _capacity;

    /// <summary>
    /// The array the readable bytes lie in, so a reader can recognize them (empty while the ring holds none). Its bytes
    /// change only through this ring's own calls, which a reader that lends them must not make meanwhile.
    /// </summary>
    public byte[] Storage => _buffer;

    /// <summary>The most bytes the ring will ever hold.</summary>
    public int MaxCapacity { get; }

    /// <summary>The readable bytes, valid until the next call that changes the ring.</summary>
    public ReadOnlySequence<byte> Readable
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_length == 0)
            {
                return ReadOnlySequence<byte>.Empty;
            }

            var beforeWrap = Math.Min(_length, _capacity - _head);
            if (beforeWrap == _length)
            {
                return new ReadOnlySequence<byte>(_buffer, _head, _length);
            }

            if (_beforeWrap is null || _afterWrap is null)
            {
                _afterWrap = new BufferSegment();
                _beforeWrap = new BufferSegment();
                _beforeWrap.SetNext(_afterWrap);
            }

            _beforeWrap.Attach(_buffer, _head, beforeWrap);
            _afterWrap.Attach(_buffer, 0, _length - beforeWrap);
            _beforeWrap.Seal(0);
            _afterWrap.Seal(beforeWrap);
            return new ReadOnlySequence<byte>(_beforeWrap, 0, _afterWrap, _afterWrap.Count);
        }
    }

    /// <summary>
    /// Returns the free space that directly follows the data, after growing the ring (up to its maximum) so that
    /// at least <paramref name="minimumFree"/> bytes are free in all. The returned block can be shorter than that
    /// when the free space wraps; write into it, then call <see cref="Advance"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">The ring is at its maximum and has too little free space.</exception>
    public Memory<byte> GetWriteMemory(int minimumFree = 1)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        ArgumentOutOfRangeException.ThrowIfLessThan(minimumFree, 1);
        if (_capacity == 0)
        {
            UseArray(_pool.Rent(_initialCapacity));
        }

        if (_capacity - _length < minimumFree)
        {
            Grow(_length + minimumFree);
        }

        if (_length == 0)
        {
            _head = 0;
        }

        var tail = Wrap(_head + _length);
        var end = tail >= _head ? _capacity : _head;
        return _buffer.AsMemory(tail, end - tail);
    }

    /// <summary>Makes <paramref name="count"/> bytes written into <see cref="GetWriteMemory"/>'s block readable.</summary>
    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)count, (uint)(_capacity - _length), nameof(count));
        _length += count;
    }

    /// <summary>Copies <paramref name="data"/> in after the readable bytes, growing the ring (up to its maximum) as needed.</summary>
    /// <exception cref="InvalidOperationException">The data does not fit under the ring's maximum.</exception>
    public void Write(ReadOnlySpan<byte> data)
    {
        while (!data.IsEmpty)
        {
            var free = GetWriteMemory(data.Length).Span;
            var chunk = Math.Min(free.Length, data.Length);
            data[..chunk].CopyTo(free);
            Advance(chunk);
            data = data[chunk..];
        }
    }

    /// <summary>Drops the first <paramref name="count"/> readable bytes.</summary>
    public void Consume(int count)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan((uint)count, (uint)_length, nameof(count));
        _head = Wrap(_head + count);
        _length -= count;
    }

    /// <summary>Returns a grown array to the pool once the ring is empty; returns whether it did.</summary>
    public bool TrimExcess()
    {
        if (_length != 0 || _capacity <= _initialCapacity)
        {
            return false;
        }

        _pool.Return(_buffer);
        UseArray(_pool.Rent(_initialCapacity));
        return true;
    }

    /// <summary>
    /// Returns the array to the pool if the ring is empty, so an idle reader holds no memory; the next write rents
    /// again. Returns whether it did.
    /// </summary>
    public bool ReturnWhenEmpty()
    {
        if (_length != 0 || _capacity == 0)
        {
            return false;
        }

        _pool.Return(_buffer);
        _buffer = [];
        _capacity = 0;
        _head = 0;
        return true;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (_capacity != 0)
        {
            _pool.Return(_buffer);
        }

        _buffer = [];
        _capacity = 0;
        _head = 0;
        _length = 0;
    }

    private int Wrap(int index) => index >= _capacity ? index - _capacity : index;

    private void UseArray(byte[] array)
    {
        _buffer = array;
        _capacity = Math.Min(array.Length, MaxCapacity);
        _head = 0;
    }

    private void Grow(int required)
    {
        if (required > MaxCapacity)
        {
            throw new InvalidOperationException($"The ring would need {required} bytes; its maximum is {MaxCapacity}.");
        }

        var larger = _pool.Rent((int)Math.Clamp(_capacity * 2L, required, MaxCapacity));
        Readable.CopyTo(larger);
        _pool.Return(_buffer);
        UseArray(larger);
    }
}
