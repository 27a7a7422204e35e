using System.IO.Pipelines;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using static Berth.Benchmarks.Core.PipeFill;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The tcp-framework article's growth case: ten 4 KB writes into a 4 KB buffer, then drained (442 KB allocated
/// there), for the article's buffer, Berth's ring and a Pipe.
/// </summary>
[MemoryDiagnoser]
public class ReceiveGrowthBenchmarks
{
    private const int Capacity = 4096;
    private readonly byte[] _block = new byte[Capacity];
    private RingBuffer _ring = null!;
    private Pipe _pipe = null!;

    /// <summary>Builds the ring and the Pipe once; the article's buffer is made fresh in its benchmark, as there.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _ring = new RingBuffer(Capacity, 16 * 1024 * 1024);
        _pipe = NewPipe();
    }

    /// <summary>Returns the pooled arrays.</summary>
    [GlobalCleanup]
    public void Cleanup() => _ring.Dispose();

    /// <summary>The article's buffer, fresh each time, growing with new arrays.</summary>
    [Benchmark(Baseline = true)]
    public int Grow_ResizingCircular()
    {
        var buffer = new ResizingCircularBuffer(Capacity);
        for (var i = 0; i < 10; i++)
        {
            buffer.Write(_block);
        }

        return buffer.Length;
    }

    /// <summary>Berth's ring, growing by pooled swaps and trimmed back once drained.</summary>
    [Benchmark]
    public int Grow_Ring()
    {
        for (var i = 0; i < 10; i++)
        {
            _ring.Write(_block);
        }

        var length = _ring.Length;
        _ring.Consume(length);
        _ring.TrimExcess();
        return length;
    }

    /// <summary>A Pipe, which chains segments instead of growing.</summary>
    [Benchmark]
    public long Grow_Pipe()
    {
        for (var i = 0; i < 10; i++)
        {
            Fill(_pipe.Writer, _block);
        }

        _pipe.Reader.TryRead(out var result);
        _pipe.Reader.AdvanceTo(result.Buffer.End);
        return result.Buffer.Length;
    }
}
