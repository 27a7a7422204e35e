using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Native code that fills a buffer the managed side then reads, per call: fill a native buffer and
/// copy it out against letting native code write straight into the pinned managed array.
/// </summary>
[MemoryDiagnoser]
public unsafe class NativeRecvBenchmarks : NativeBufferBenchmarks
{
    private byte _seed = 3;

    [Benchmark(Baseline = true)]
    public byte FillNativeCopyOut()
    {
        InteropCalls.Recv(Buffers.Native, Size, _seed);
        Buffers.NativeSpan.CopyTo(Buffers.Managed);
        return Buffers.Managed[^1];
    }

    [Benchmark]
    public byte PinnedFixed()
    {
        fixed (byte* data = Buffers.Managed)
        {
            InteropCalls.Recv(data, Size, _seed);
        }

        return Buffers.Managed[^1];
    }
}
