using System.Buffers;

namespace Berth.Buffers;

/// <summary>
/// The source of every pooled array in Berth. Wraps an <see cref="ArrayPool{T}"/> and counts what is out,
/// so a server (and its tests) can prove that every buffer came back after a connection or the server closed.
/// </summary>
public sealed class BufferPool
{
    private readonly ArrayPool<byte> _arrays;
    private long _rented;
    private long _returned;

    /// <summary>A process-wide pool over <see cref="ArrayPool{T}.Shared"/>.</summary>
    public static BufferPool Shared { get; } = new();

    /// <summary>Creates a counting pool over <see cref="ArrayPool{T}.Shared"/>.</summary>
    public BufferPool()
        : this(ArrayPool<byte>.Shared)
    {
    }

    /// <summary>Creates a counting pool over the given array pool.</summary>
    public BufferPool(ArrayPool<byte> arrays)
    {
        ArgumentNullException.ThrowIfNull(arrays);
        _arrays = arrays;
    }

    /// <summary>Arrays rented and not yet returned.</summary>
    public long Outstanding => Volatile.Read(ref _rented) - Volatile.Read(ref _returned);

    /// <summary>Arrays rented since the pool was created.</summary>
    public long TotalRented => Volatile.Read(ref _rented);

    /// <summary>Bytes of free arrays kept for reuse, when the array pool is a <see cref="ReleasingArrayPool"/>; null for pools that do not say.</summary>
    public long? RetainedBytes => (_arrays as ReleasingArrayPool)?.RetainedBytes;

    /// <summary>Rents an array of at least <paramref name="minimumLength"/> bytes; its contents are undefined.</summary>
    internal byte[] Rent(int minimumLength)
    {
        var array = _arrays.Rent(minimumLength);
        Interlocked.Increment(ref _rented);
        return array;
    }

    /// <summary>Returns an array obtained from <see cref="Rent"/>. The caller must not touch it afterwards.</summary>
    internal void Return(byte[] array)
    {
        Interlocked.Increment(ref _returned);
        _arrays.Return(array);
    }
}
