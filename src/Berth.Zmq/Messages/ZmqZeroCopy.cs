using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// Hands pooled managed arrays to libzmq without copying: the array is pinned by a GCHandle whose address is the
/// <c>zmq_msg_init_data</c> hint, and the free callback (run by libzmq, usually on its I/O thread) unpins it and
/// returns it to the pool.
/// </summary>
internal static unsafe class ZmqZeroCopy
{
    /// <summary>The most arrays of one size class kept for reuse: above the default high-water mark (1000), so a
    /// full send queue of zero-copy frames is served from the pool after warm-up. <see cref="ArrayPool{T}.Shared"/>
    /// keeps only a few per core and, with frames returned from libzmq's I/O thread, allocated on most large sends.</summary>
    private const int ArraysPerSize = 1024;

    /// <summary>The largest array the pool keeps; longer frames get an array that is dropped after use.</summary>
    private const int LargestPooledArray = 4 * 1024 * 1024;

    private static long _pooledReleases;

    /// <summary>The pool zero-copy frames rent from and libzmq returns to.</summary>
    public static ArrayPool<byte> Pool { get; } = ArrayPool<byte>.Create(LargestPooledArray, ArraysPerSize);

    /// <summary>How many pooled arrays libzmq has given back since start; tests use it to prove each is freed exactly once.</summary>
    public static long PooledReleases => Volatile.Read(ref _pooledReleases);

    /// <summary>Initializes a closed <paramref name="msg"/> over <paramref name="array"/>; on failure the array is returned and the frame left empty.</summary>
    public static void InitPooled(ZmqMsg* msg, byte[] array, int size)
    {
        var pin = GCHandle.Alloc(array, GCHandleType.Pinned);
        if (LibZmq.MsgInitData(msg, (void*)pin.AddrOfPinnedObject(), (nuint)size, &ReturnPooledArray, GCHandle.ToIntPtr(pin)) != 0)
        {
            pin.Free();
            Pool.Return(array);
            LibZmq.MsgInit(msg);
            throw ZmqException.FromErrno("zmq_msg_init_data");
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static void ReturnPooledArray(nint data, nint hint)
    {
        var pin = GCHandle.FromIntPtr(hint);
        var array = (byte[])pin.Target!;
        pin.Free();
        Pool.Return(array);
        Interlocked.Increment(ref _pooledReleases);
    }
}
