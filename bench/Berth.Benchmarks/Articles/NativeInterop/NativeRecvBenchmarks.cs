using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Native code that fills a buffer the managed side then reads, per call: fill a native buffer and
/// copy it out against letting native code write straight into the pinned managed array.
/// </summary>
[MemoryDiagnoser]
public unsafe class NativeRecvBenchmarks
{
    private NativeBuffers _buffers = null!;
    private byte _seed = 3;

    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup() => _buffers = new NativeBuffers(Size);

    [GlobalCleanup]
    public void Cleanup() => _buffers.Dispose();

    [Benchmark(Baseline = true)]
    public byte FillNativeCopyOut()
    {
        InteropCalls.Recv(_buffers.Native, Size, _seed);
        _buffers.NativeSpan.CopyTo(_buffers.Managed);
        return _buffers.Managed[^1];
    }

    [Benchmark]
    public byte PinnedFixed()
    {
        fixed (byte* data = _buffers.Managed)
        {
            InteropCalls.Recv(data, Size, _seed);
        }

        return _buffers.Managed[^1];
    }
}
