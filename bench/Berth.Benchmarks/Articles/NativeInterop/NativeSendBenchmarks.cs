using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Handing a managed buffer to native code that reads all of it (a checksum), per call: copying
/// into a reused native buffer first (what Java must do) against passing the managed memory itself.
/// </summary>
[MemoryDiagnoser]
public unsafe class NativeSendBenchmarks : NativeBufferBenchmarks
{
    [Benchmark(Baseline = true)]
    public uint CopyToReusedNative()
    {
        Buffers.Managed.AsSpan().CopyTo(Buffers.NativeSpan);
        return InteropCalls.Send(Buffers.Native, Size);
    }

    [Benchmark]
    public uint AllocateCopyFree()
    {
        var native = (byte*)NativeMemory.Alloc((nuint)Size);
        Buffers.Managed.AsSpan().CopyTo(new Span<byte>(native, Size));
        var checksum = InteropCalls.Send(native, Size);
        NativeMemory.Free(native);
        return checksum;
    }

    [Benchmark]
    public uint PinnedFixed()
    {
        fixed (byte* data = Buffers.Managed)
        {
            return InteropCalls.Send(data, Size);
        }
    }

    [Benchmark]
    public uint PinnedByMarshaller() => InteropCalls.SendArrayDllImport(Buffers.Managed, Size);

    [Benchmark]
    public uint PrePinnedPinnedObjectHeap() => InteropCalls.Send(Buffers.PinnedObjectHeapPointer, Size);

    [Benchmark]
    public uint AlreadyNative() => InteropCalls.Send(Buffers.Native, Size);
}
