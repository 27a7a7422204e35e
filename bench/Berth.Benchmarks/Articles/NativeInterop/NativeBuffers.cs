using System.Runtime.InteropServices;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// The buffers the native-call benchmarks share: a managed array with data, a native buffer of the
/// same size allocated once (the reused-buffer pattern the Java side measures), and a
/// pinned-object-heap array whose address never changes.
/// </summary>
internal sealed unsafe class NativeBuffers : IDisposable
{
    public NativeBuffers(int size)
    {
        InteropLibrary.EnsureLoaded();
        Size = size;
        Managed = new byte[size];
        Random.Shared.NextBytes(Managed);
        Native = (byte*)NativeMemory.AlignedAlloc((nuint)size, 64);
        Managed.AsSpan().CopyTo(NativeSpan);
        PinnedObjectHeap = GC.AllocateArray<byte>(size, pinned: true);
        Managed.AsSpan().CopyTo(PinnedObjectHeap);
    }

    public int Size { get; }

    public byte[] Managed { get; }

    public byte* Native { get; }

    public Span<byte> NativeSpan => new(Native, Size);

    public byte[] PinnedObjectHeap { get; }

    public byte* PinnedObjectHeapPointer => (byte*)Marshal.UnsafeAddrOfPinnedArrayElement(PinnedObjectHeap, 0);

    public void Dispose() => NativeMemory.AlignedFree(Native);
}
