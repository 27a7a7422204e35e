using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// The fixed cost of one tiny native call (a checksum of 64 bytes already in native memory), per
/// call, by declaration style. <c>[SuppressGCTransition]</c> skips the cooperative-to-preemptive GC
/// mode switch, which dominates calls this short.
/// </summary>
[MemoryDiagnoser]
public unsafe class InteropTransitionBenchmarks
{
    private const int Size = 64;
    private NativeBuffers _buffers = null!;

    [GlobalSetup]
    public void Setup() => _buffers = new NativeBuffers(Size);

    [GlobalCleanup]
    public void Cleanup() => _buffers.Dispose();

    [Benchmark(Baseline = true)]
    public uint DllImport() => InteropCalls.SendDllImport(_buffers.Native, Size);

    [Benchmark]
    public uint LibraryImport() => InteropCalls.Send(_buffers.Native, Size);

    [Benchmark]
    public uint DllImportSuppressGCTransition() => InteropCalls.SendDllImportNoTransition(_buffers.Native, Size);

    [Benchmark]
    public uint LibraryImportSuppressGCTransition() => InteropCalls.SendNoTransition(_buffers.Native, Size);
}
