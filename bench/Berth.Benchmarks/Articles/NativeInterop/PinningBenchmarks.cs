using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Obtaining a stable native pointer to a managed array, per operation, reading one byte through
/// it so the pointer is used. <see cref="MemoryMarshalGetReference"/> is in the table because the
/// source article lists it as a pinning method: it only takes a reference and does not pin, so a
/// pointer taken from it without <c>fixed</c> may be moved by the GC.
/// </summary>
[MemoryDiagnoser]
public unsafe class PinningBenchmarks
{
    private byte[] _array = [];
    private byte[] _pinnedArray = [];
    private byte* _prePinned;

    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _array = new byte[Size];
        _array[0] = 7;
        _pinnedArray = GC.AllocateArray<byte>(Size, pinned: true);
        _pinnedArray[0] = 7;
        _prePinned = (byte*)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(_pinnedArray));
    }

    [Benchmark(Baseline = true)]
    public byte Fixed()
    {
        fixed (byte* pointer = _array)
        {
            return *pointer;
        }
    }

    [Benchmark]
    public byte GCHandlePinned()
    {
        var handle = GCHandle.Alloc(_array, GCHandleType.Pinned);
        var value = *(byte*)handle.AddrOfPinnedObject();
        handle.Free();
        return value;
    }

    [Benchmark]
    public byte MemoryMarshalGetReference() => MemoryMarshal.GetReference(_array.AsSpan());

    [Benchmark]
    public byte MemoryPin()
    {
        using MemoryHandle handle = _array.AsMemory().Pin();
        return *(byte*)handle.Pointer;
    }

    [Benchmark]
    public byte PrePinnedPinnedObjectHeap() => *_prePinned;
}
