using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Getting a receive-sized buffer and giving it back, per buffer. Both write one byte so neither
/// allocation can be removed.
/// </summary>
[MemoryDiagnoser]
public class ArrayPoolVsNewBenchmarks
{
    [Params(256, 1024, 4096)]
    public int BufferSize { get; set; }

    [Benchmark(Baseline = true)]
    public byte[] NewArray()
    {
        var buffer = new byte[BufferSize];
        buffer[0] = 1;
        return buffer;
    }

    [Benchmark]
    public int ArrayPoolRentReturn()
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        buffer[0] = 1;
        var length = buffer.Length;
        ArrayPool<byte>.Shared.Return(buffer);
        return length;
    }
}
