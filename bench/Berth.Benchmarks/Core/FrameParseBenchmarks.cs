using System.Buffers;
using System.IO.Pipelines;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Framing;
using static Berth.Benchmarks.Core.PipeFill;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The tcp-framework article's parse case: ten 64-byte frames split off received bytes (1,864 B allocated there),
/// by the article's LINQ parser, and by <see cref="FrameDecoder"/> in place over Berth's ring and over a Pipe.
/// </summary>
[MemoryDiagnoser]
public class FrameParseBenchmarks
{
    private readonly FrameDecoder _decoder = new(LengthFieldFormat.Berth);
    private byte[] _tenFrames = null!;
    private RingBuffer _ring = null!;
    private Pipe _pipe = null!;
    private ResizingCircularBuffer _resizing = null!;
    private OneSegment _oneSegment = null!;

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
        _oneSegment = new OneSegment(_tenFrames);
        _ring = new RingBuffer(4096, 16 * 1024 * 1024);
        _pipe = NewPipe();
        _resizing = new ResizingCircularBuffer(4096);
    }

    /// <summary>Returns the pooled arrays.</summary>
    [GlobalCleanup]
    public void Cleanup() => _ring.Dispose();

    /// <summary>The article's parser: a new array per frame, through LINQ.</summary>
    [Benchmark(Baseline = true)]
    public int Parse_ResizingCircularLinq()
    {
        _resizing.Write(_tenFrames);
        return _resizing.TakePackets().Count;
    }

    /// <summary>Frames decoded in place from Berth's ring.</summary>
    [Benchmark]
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
    public int Parse_Pipe()
    {
        Fill(_pipe.Writer, _tenFrames);
        _pipe.Reader.TryRead(out var result);
        var buffer = result.Buffer;
        var frames = DecodeAll(ref buffer);
        _pipe.Reader.AdvanceTo(buffer.Start, buffer.End);
        return frames;
    }

    /// <summary>
    /// The ten frames as one run of one array, as the ring delivers every frame that does not wrap: the decoder's
    /// array-run path.
    /// </summary>
    [Benchmark]
    public int Parse_ArrayRun()
    {
        var buffer = new ReadOnlySequence<byte>(_tenFrames);
        return DecodeAll(ref buffer);
    }

    /// <summary>The same bytes as one segment of a segment chain: the decoder's general path, which the array-run path skips.</summary>
    [Benchmark]
    public int Parse_OneSegment()
    {
        var buffer = new ReadOnlySequence<byte>(_oneSegment, 0, _oneSegment, _tenFrames.Length);
        return DecodeAll(ref buffer);
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

    private sealed class OneSegment : ReadOnlySequenceSegment<byte>
    {
        public OneSegment(byte[] bytes) => Memory = bytes;
    }
}
