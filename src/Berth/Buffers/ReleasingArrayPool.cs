using System.Buffers;
using System.Numerics;

namespace Berth.Buffers;

/// <summary>
/// An array pool that gives memory back after a burst. Arrays come in power-of-two sizes from 16 bytes up to a
/// maximum and are allocated pinned, so a socket operation never pins a movable array in the middle of the young
/// heap. Each size keeps free arrays up to a byte bound, and a timer releases, at every interval, the free arrays
/// that no rent needed during the whole interval before, except those it needs to hold twice what the interval's
/// busiest moment had rented: after a burst of connections, the pool returns to twice what the steady load uses within
/// two intervals (nothing, once the load stops), and the garbage collector can hand the memory back to the system.
/// </summary>
/// <remarks>
/// <see cref="ArrayPool{T}.Create(int, int)"/> keeps every array it was given back, up to its count per size, for
/// the life of the process: a burst of 1,000 connections leaves 64 MiB of receive rings in it forever.
/// The headroom is for steady load, whose busiest moment differs from one interval to the next: releasing every
/// array a quieter interval left unused made the next busier one allocate them again, so a steady load allocated
/// now and then without end (docs/decisions/buffer-pool.md).
/// </remarks>
public sealed class ReleasingArrayPool : ArrayPool<byte>
{
    private const int SmallestArray = 16;
    private const long CollectAfterReleasing = 4 * 1024 * 1024;
    private readonly FreeList[] _sizes;
    private long _retainedBytes;

    /// <summary>Creates a pool.</summary>
    /// <param name="maxArrayLength">The largest array kept for reuse; rounded up to a power of two. Longer arrays are allocated per rent and dropped on return.</param>
    /// <param name="maxRetainedBytesPerSize">Most bytes of free arrays kept for each size; at least one array of each size is kept.</param>
    /// <param name="evictionInterval">How long a free array may stay unused before the pool releases it; <see cref="Timeout.InfiniteTimeSpan"/> never releases.</param>
    public ReleasingArrayPool(int maxArrayLength, long maxRetainedBytesPerSize, TimeSpan evictionInterval)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxArrayLength, SmallestArray);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxArrayLength, 1 << 30);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxRetainedBytesPerSize, 0);
        if (evictionInterval != Timeout.InfiniteTimeSpan)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(evictionInterval, TimeSpan.Zero);
        }

        _sizes = new FreeList[SizeIndex(maxArrayLength) + 1];
        for (var i = 0; i < _sizes.Length; i++)
        {
            var length = SmallestArray << i;
            _sizes[i] = new FreeList(length, (int)Math.Clamp(maxRetainedBytesPerSize / length, 1, 1 << 20));
        }

        if (evictionInterval != Timeout.InfiniteTimeSpan)
        {
            EvictionTimer.Start(this, evictionInterval);
        }
    }

    /// <summary>Bytes of free arrays the pool holds for reuse.</summary>
    public long RetainedBytes => Volatile.Read(ref _retainedBytes);

    /// <summary>The largest array length the pool keeps.</summary>
    public int MaxArrayLength => _sizes[^1].Length;

    /// <inheritdoc />
    public override byte[] Rent(int minimumLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumLength);
        if (minimumLength == 0)
        {
            return [];
        }

        var index = SizeIndex(minimumLength);
        if (index >= _sizes.Length)
        {
            return GC.AllocateUninitializedArray<byte>(minimumLength);
        }

        var size = _sizes[index];
        if (size.TryTake() is { } array)
        {
            Interlocked.Add(ref _retainedBytes, -array.Length);
            return array;
        }

        return GC.AllocateUninitializedArray<byte>(size.Length, pinned: true);
    }

    /// <inheritdoc />
    public override void Return(byte[] array, bool clearArray = false)
    {
        ArgumentNullException.ThrowIfNull(array);
        if (array.Length == 0 || array.Length > MaxArrayLength)
        {
            return;
        }

        var size = _sizes[SizeIndex(array.Length)];
        if (size.Length != array.Length)
        {
            throw new ArgumentException("The array was not rented from this pool.", nameof(array));
        }

        if (clearArray)
        {
            Array.Clear(array);
        }

        if (size.TryAdd(array))
        {
            Interlocked.Add(ref _retainedBytes, array.Length);
        }
    }

    /// <summary>
    /// Releases, for every size, the free arrays no rent needed since the last call, keeping enough to hold twice as
    /// many as were rented at once at the busiest moment since then; returns the bytes released.
    /// </summary>
    public long ReleaseUnused()
    {
        long released = 0;
        foreach (var size in _sizes)
        {
            released += size.ReleaseUnused();
        }

        Interlocked.Add(ref _retainedBytes, -released);
        if (released >= CollectAfterReleasing)
        {
            // Released arrays are garbage only until a full collection runs, and a server at rest allocates too
            // little to start one: without this, the memory of a burst stays with the process for good. An
            // aggressive collection also gives the freed regions back to the system: after a plain full collection
            // the GC kept about 17 MB committed for a heap of 0.2 MB (docs/RELIABILITY.md, "Memory after churn").
            // It blocks and compacts, so it runs at most once per interval, and only after a burst.
            GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        }

        return released;
    }

    private static int SizeIndex(int length) =>
        BitOperations.Log2((uint)Math.Max(length, SmallestArray) - 1) + 1 - BitOperations.Log2(SmallestArray);

    /// <summary>Calls <see cref="ReleaseUnused"/> every interval; holds the pool weakly, so a pool nobody references is collected and its timer stops.</summary>
    private sealed class EvictionTimer
    {
        private readonly WeakReference<ReleasingArrayPool> _pool;
        private Timer? _timer;

        private EvictionTimer(ReleasingArrayPool pool) => _pool = new WeakReference<ReleasingArrayPool>(pool);

        public static void Start(ReleasingArrayPool pool, TimeSpan interval)
        {
            var eviction = new EvictionTimer(pool);
            eviction._timer = new Timer(static state => ((EvictionTimer)state!).Tick(), eviction, interval, interval);
        }

        private void Tick()
        {
            if (_pool.TryGetTarget(out var pool))
            {
                pool.ReleaseUnused();
            }
            else
            {
                _timer?.Dispose();
            }
        }
    }

    /// <summary>
    /// The free arrays of one length, most recently returned on top. <see cref="_leastFree"/> is the fewest arrays
    /// the list held since the last eviction: that many at the bottom were not needed during the interval.
    /// <see cref="_mostInUse"/> is the most arrays of this length out at once since then, counting those allocated
    /// because the list was empty. The stack itself grows and shrinks with use, so a bound of a million small arrays
    /// costs nothing until they exist.
    /// </summary>
    private sealed class FreeList(int length, int capacity)
    {
        private readonly Lock _lock = new();
        private byte[]?[] _arrays = [];
        private int _count;
        private int _leastFree;
        private int _inUse;
        private int _mostInUse;

        public int Length { get; } = length;

        /// <summary>Takes a free array, or returns null when there is none and the caller allocates one; counts it as in use either way.</summary>
        public byte[]? TryTake()
        {
            lock (_lock)
            {
                if (++_inUse > _mostInUse)
                {
                    _mostInUse = _inUse;
                }

                if (_count == 0)
                {
                    return null;
                }

                var array = _arrays[--_count]!;
                _arrays[_count] = null;
                if (_count < _leastFree)
                {
                    _leastFree = _count;
                }

                return array;
            }
        }

        /// <summary>Takes back an array that was in use; returns false when the list is full and drops it.</summary>
        public bool TryAdd(byte[] array)
        {
            lock (_lock)
            {
                // An array of this length the pool never handed out is kept as well; it cannot take the count below zero.
                if (_inUse > 0)
                {
                    _inUse--;
                }

                if (_count == _arrays.Length)
                {
                    if (_count == capacity)
                    {
                        return false;
                    }

                    Array.Resize(ref _arrays, Math.Min(capacity, Math.Max(4, _count * 2)));
                }

                _arrays[_count++] = array;
                return true;
            }
        }

        public long ReleaseUnused()
        {
            lock (_lock)
            {
                var headroom = 2 * _mostInUse;
                var keptFree = Math.Max(0, headroom - _inUse);
                var unused = Math.Min(_leastFree, Math.Max(0, _count - keptFree));
                if (unused > 0)
                {
                    var kept = _count - unused;
                    var remaining = kept <= _arrays.Length / 4 ? new byte[]?[kept == 0 ? 0 : kept * 2] : _arrays;
                    Array.Copy(_arrays, unused, remaining, 0, kept);
                    Array.Clear(remaining, kept, remaining.Length - kept);
                    _arrays = remaining;
                    _count = kept;
                }

                _leastFree = _count;
                _mostInUse = _inUse;
                return (long)unused * Length;
            }
        }
    }
}
