using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Benchmarks.Core;

/// <summary>
/// The send queue's buffer, one batch at a time: a mark and a frame appended per message, as the queue does for a
/// serialized frame, then the batch taken as the gather list a send hands to the socket, and its arrays returned.
/// The single <see cref="PooledBufferWriter"/> against the queue's former buffer, in the same run; results are per frame.
/// </summary>
[MemoryDiagnoser]
public class SendBufferBenchmarks
{
    private const int FramesPerBatch = 32;
    private const int SegmentSize = 16_384;

    private readonly BufferPool _pool = new();
    private readonly List<ArraySegment<byte>> _gather = new(FramesPerBatch);
    private FrameEncoder _encoder = null!;
    private ArrayListSendBuffer _baseline = null!;
    private PooledBufferWriter _folded = null!;
    private byte[] _body = null!;

    /// <summary>Body bytes per frame.</summary>
    [Params(64, 1024)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _encoder = new FrameEncoder(LengthFieldFormat.Berth);
        _baseline = new ArrayListSendBuffer(_pool, SegmentSize);
        _folded = new PooledBufferWriter(_pool, SegmentSize);
        _body = new byte[Size];
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _baseline.Reset();
        _folded.Reset();
    }

    /// <summary>The send queue's former buffer, with its own frame counter.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = FramesPerBatch)]
    public int ArrayListSendBufferBatch()
    {
        for (var i = 0; i < FramesPerBatch; i++)
        {
            _ = _baseline.Mark();
            _encoder.WriteFrame(_baseline, _body);
            _baseline.FrameWritten();
        }

        _gather.Clear();
        for (var i = 0; i < _baseline.SegmentCount; i++)
        {
            _gather.Add(_baseline.Segment(i));
        }

        var frames = _baseline.Frames;
        _baseline.Reset();
        return frames + _gather.Count;
    }

    /// <summary>The single buffer-writer type, frames counted by its owner as the send queue does.</summary>
    [Benchmark(OperationsPerInvoke = FramesPerBatch)]
    public int PooledBufferWriterBatch()
    {
        var frames = 0;
        for (var i = 0; i < FramesPerBatch; i++)
        {
            _ = _folded.Mark();
            _encoder.WriteFrame(_folded, _body);
            frames++;
        }

        _gather.Clear();
        for (var i = 0; i < _folded.SegmentCount; i++)
        {
            _gather.Add(_folded.Segment(i));
        }

        _folded.Reset();
        return frames + _gather.Count;
    }
}
