using System.Buffers;
using System.IO.Pipelines;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Berth.Buffers;
using Berth.Framing;
using static Berth.Benchmarks.Core.PipeFill;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The tcp-framework article's growth case (ten 4 KB writes into a 4 KB buffer: 442 KB allocated there) and its
/// parse case (ten frames: 1,864 B there), for the article's buffer, Berth's ring and a Pipe.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ReceiveGrowthAndParseBenchmarks
{
    private const int Capacity = 4096;
    private readonly FrameDecoder _decoder = new(LengthFieldFormat.Berth);
    private readonly byte[] _block = new byte[Capacity];
    private byte[] _tenFrames = null!;
    private RingBuffer _ring = null!;
    private Pipe _pipe = null!;
    private ResizingCircularBuffer _resizing = null!;

    /// <summary>Encodes ten 64-byte frames and builds each buffer once.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var frames = new ArrayBufferWriter<byte>();
        var encoder = new FrameEncoder(LengthFieldFormat.Berth);
        for (var i = 0; i < 10; i++)
        {
            encoder.WriteFrame(frames, new byte[64]);
        }

        _tenFrames = frames.WrittenSpan.ToArray();
        _ring = new RingBuffer(Capacity, 16 * 1024 * 1024);
        _pipe = NewPipe();
        _resizing = new ResizingCircularBuffer(Capacity);
    }

    /// <summary>Returns the pooled arrays.</summary>
    [GlobalCleanup]
    public void Cleanup() => _ring.Dispose();

    /// <summary>The article's buffer, fresh each time, growing with new arrays.</summary>
    [Benchmark(Baseline = true)]
    [BenchmarkCategory("TenWritesPastCapacity")]
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
    [BenchmarkCategory("TenWritesPastCapacity")]
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
    [BenchmarkCategory("TenWritesPastCapacity")]
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

    /// <summary>The article's parser: a new array per frame, through LINQ.</summary>
    [Benchmark(Baseline = true)]
    [BenchmarkCategory("ParseTenFrames")]
    public int Parse_ResizingCircularLinq()
    {
        _resizing.Write(_tenFrames);
        return _resizing.TakePackets().Count;
    }

    /// <summary>Frames decoded in place from Berth's ring.</summary>
    [Benchmark]
    [BenchmarkCategory("ParseTenFrames")]
    public int Parse_Ring()
    {
        _ring.Write(_tenFrames);
        var buffer = _ring.Readable;
        var frames = DecodeAll(ref buffer);
        _ring.Consume(_ring.Length - (int)buffer.Length);
        return frames;
    }

    /// <summary>Frames decoded in place from a Pipe.</summary>
    [Benchmark]
    [BenchmarkCategory("ParseTenFrames")]
    public int Parse_Pipe()
    {
        Fill(_pipe.Writer, _tenFrames);
        _pipe.Reader.TryRead(out var result);
        var buffer = result.Buffer;
        var frames = DecodeAll(ref buffer);
        _pipe.Reader.AdvanceTo(buffer.Start, buffer.End);
        return frames;
    }

    private int DecodeAll(ref ReadOnlySequence<byte> buffer)
    {
        var bodyBytes = 0;
        while (_decoder.TryReadFrame(ref buffer, out var body) == FrameReadResult.Frame)
        {
            bodyBytes += (int)body.Length;
        }

        return bodyBytes;
    }
}
