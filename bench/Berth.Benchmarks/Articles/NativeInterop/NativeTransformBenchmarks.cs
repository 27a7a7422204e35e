using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Native code that modifies a managed buffer in place (XOR), per call: copy in and copy back out
/// against passing the pinned managed array.
/// </summary>
[MemoryDiagnoser]
public unsafe class NativeTransformBenchmarks : NativeBufferBenchmarks
{
    private byte _key = 0x5A;

    [Benchmark(Baseline = true)]
    public byte CopyInCopyOut()
    {
        Buffers.Managed.AsSpan().CopyTo(Buffers.NativeSpan);
        InteropCalls.Transform(Buffers.Native, Size, _key);
        Buffers.NativeSpan.CopyTo(Buffers.Managed);
        return Buffers.Managed[^1];
    }

    [Benchmark]
    public byte PinnedFixed()
    {
        fixed (byte* data = Buffers.Managed)
        {
            InteropCalls.Transform(data, Size, _key);
        }

        return Buffers.Managed[^1];
    }

    [Benchmark]
    public byte AlreadyNative()
    {
        InteropCalls.Transform(Buffers.Native, Size, _key);
        return Buffers.Native[Size - 1];
    }
}
