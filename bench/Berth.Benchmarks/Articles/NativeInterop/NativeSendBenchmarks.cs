using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Handing a managed buffer to native code that reads all of it (a checksum), per call: copying
/// into a reused native buffer first (what Java must do) against passing the managed memory itself.
/// </summary>
[MemoryDiagnoser]
public unsafe class NativeSendBenchmarks
{
    private NativeBuffers _buffers = null!;

    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup() => _buffers = new NativeBuffers(Size);

    [GlobalCleanup]
    public void Cleanup() => _buffers.Dispose();

    [Benchmark(Baseline = true)]
    public uint CopyToReusedNative()
    {
        _buffers.Managed.AsSpan().CopyTo(_buffers.NativeSpan);
        return InteropCalls.Send(_buffers.Native, Size);
    }

    [Benchmark]
    public uint AllocateCopyFree()
    {
        var native = (byte*)NativeMemory.Alloc((nuint)Size);
        _buffers.Managed.AsSpan().CopyTo(new Span<byte>(native, Size));
        var checksum = InteropCalls.Send(native, Size);
        NativeMemory.Free(native);
        return checksum;
    }

    [Benchmark]
    public uint PinnedFixed()
    {
        fixed (byte* data = _buffers.Managed)
        {
            return InteropCalls.Send(data, Size);
        }
    }

    [Benchmark]
    public uint PinnedByMarshaller() => InteropCalls.SendArrayDllImport(_buffers.Managed, Size);

    [Benchmark]
    public uint PrePinnedPinnedObjectHeap() => InteropCalls.Send(_buffers.PinnedObjectHeapPointer, Size);

    [Benchmark]
    public uint AlreadyNative() => InteropCalls.Send(_buffers.Native, Size);
}
