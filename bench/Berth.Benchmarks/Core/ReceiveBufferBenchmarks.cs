using System.Buffers;
using System.IO.Pipelines;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using static Berth.Benchmarks.Core.PipeFill;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The receive buffer choice on the tcp-framework article's first workload: write a block, read it out, drop it.
/// Berth's pooled <see cref="RingBuffer"/> against <see cref="Pipe"/>, the article's circular buffer and its byte queue.
/// </summary>
[MemoryDiagnoser]
public class ReceiveBufferBenchmarks
{
    private byte[] _block = null!;
    private byte[] _scratch = null!;
    private RingBuffer _ring = null!;
    private Pipe _pipe = null!;
    private ResizingCircularBuffer _resizing = null!;
    private ByteQueueBuffer _queue = null!;

    /// <summary>Bytes per write.</summary>
    [Params(64, 512, 1024, 4096, 8192)]
    public int Size { get; set; }

    /// <summary>Builds each buffer once; the measured work reuses them.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _block = new byte[Size];
        Random.Shared.NextBytes(_block);
        _scratch = new byte[Size];
        _ring = new RingBuffer(4096, 16 * 1024 * 1024);
        _pipe = NewPipe();
        _resizing = new ResizingCircularBuffer(4096);
        _queue = new ByteQueueBuffer();
    }

    /// <summary>Returns the pooled arrays.</summary>
    [GlobalCleanup]
    public void Cleanup() => _ring.Dispose();

    /// <summary>The article's circular buffer.</summary>
    [Benchmark(Baseline = true)]
    public int ResizingCircular()
    {
        _resizing.Write(_block);
        _resizing.Peek(_scratch);
        _resizing.Consume(Size);
        return _resizing.Length;
    }

    /// <summary>The article's byte queue.</summary>
    [Benchmark]
    public int ByteQueue()
    {
        _queue.Write(_block);
        _queue.Read(_scratch);
        return _queue.Length;
    }

    /// <summary>Berth's pooled ring.</summary>
    [Benchmark]
    public int Ring()
    {
        _ring.Write(_block);
        _ring.Readable.CopyTo(_scratch);
        _ring.Consume(Size);
        return _ring.Length;
    }

    /// <summary>A Pipe with its default pool.</summary>
    [Benchmark]
    public long Pipe()
    {
        Fill(_pipe.Writer, _block);
        _pipe.Reader.TryRead(out var result);
        var buffer = result.Buffer;
        buffer.CopyTo(_scratch);
        _pipe.Reader.AdvanceTo(buffer.End);
        return buffer.Length;
    }
}
