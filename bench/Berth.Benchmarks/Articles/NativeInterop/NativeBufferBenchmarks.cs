using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.NativeInterop;

/// <summary>
/// What the send, recv and transform benchmarks share: the article's four sizes and one managed array with its
/// native twin, made once per size.
/// </summary>
public abstract class NativeBufferBenchmarks
{
    /// <summary>Bytes per call.</summary>
    [Params(64, 1024, 65536, 1048576)]
    public int Size { get; set; }

    /// <summary>The managed array and its native twin, made once per size.</summary>
    private protected NativeBuffers Buffers { get; private set; } = null!;

    /// <summary>Allocates the buffers for <see cref="Size"/>.</summary>
    [GlobalSetup]
    public void Setup() => Buffers = new NativeBuffers(Size);

    /// <summary>Frees the native buffer.</summary>
    [GlobalCleanup]
    public void Cleanup() => Buffers.Dispose();
}
