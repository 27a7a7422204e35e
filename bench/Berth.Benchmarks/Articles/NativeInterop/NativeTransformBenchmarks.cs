using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// Native code that modifies a managed buffer in place (XOR), per call: copy in and copy back out
/// against passing the pinned managed array.
/// </summary>
[MemoryDiagnoser]
public unsafe class NativeTransformBenchmarks
{
    private NativeBuffers _buffers = null!;
    private byte _key = 0x5A;

    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup() => _buffers = new NativeBuffers(Size);

    [GlobalCleanup]
    public void Cleanup() => _buffers.Dispose();

    [Benchmark(Baseline = true)]
    public byte CopyInCopyOut()
    {
        _buffers.Managed.AsSpan().CopyTo(_buffers.NativeSpan);
        InteropCalls.Transform(_buffers.Native, Size, _key);
        _buffers.NativeSpan.CopyTo(_buffers.Managed);
        return _buffers.Managed[^1];
    }

    [Benchmark]
    public byte PinnedFixed()
    {
        fixed (byte* data = _buffers.Managed)
        {
            InteropCalls.Transform(data, Size, _key);
        }

        return _buffers.Managed[^1];
    }

    [Benchmark]
    public byte AlreadyNative()
    {
        InteropCalls.Transform(_buffers.Native, Size, _key);
        return _buffers.Native[Size - 1];
    }
}
