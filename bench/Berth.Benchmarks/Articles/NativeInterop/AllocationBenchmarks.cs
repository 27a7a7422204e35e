using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// One allocation plus its release, per operation. Every method writes the first and last byte and
/// returns them so the allocation cannot be removed as dead code. <c>stackalloc</c> is zeroed here,
/// as it is by default in C#.
/// </summary>
[MemoryDiagnoser]
public unsafe class AllocationBenchmarks
{
    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    [Benchmark(Baseline = true)]
    public int NewArray() => Touch(new byte[Size]);

    [Benchmark]
    public int UninitializedArray() => Touch(GC.AllocateUninitializedArray<byte>(Size));

    [Benchmark]
    public int PinnedObjectHeapArray() => Touch(GC.AllocateUninitializedArray<byte>(Size, pinned: true));

    [Benchmark]
    public int ArrayPoolRent()
    {
        var array = ArrayPool<byte>.Shared.Rent(Size);
        var result = Touch(array.AsSpan(0, Size));
        ArrayPool<byte>.Shared.Return(array);
        return result;
    }

    [Benchmark]
    public int StackAlloc()
    {
        Span<byte> buffer = stackalloc byte[Size];
        return Touch(buffer);
    }

    [Benchmark]
    public int NativeMemoryAlloc()
    {
        var pointer = (byte*)NativeMemory.Alloc((nuint)Size);
        var result = Touch(new Span<byte>(pointer, Size));
        NativeMemory.Free(pointer);
        return result;
    }

    [Benchmark]
    public int NativeMemoryAllocZeroed()
    {
        var pointer = (byte*)NativeMemory.AllocZeroed((nuint)Size);
        var result = Touch(new Span<byte>(pointer, Size));
        NativeMemory.Free(pointer);
        return result;
    }

    [Benchmark]
    public int MarshalAllocHGlobal()
    {
        var pointer = Marshal.AllocHGlobal(Size);
        var result = Touch(new Span<byte>((byte*)pointer, Size));
        Marshal.FreeHGlobal(pointer);
        return result;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Touch(Span<byte> buffer)
    {
        buffer[0] = 1;
        buffer[^1] = 2;
        return buffer[0] + buffer[^1];
    }
}
