using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Buffers;
using Berth.Zmq;

namespace Berth.Benchmarks.Zmq;

/// <summary>
/// A Berth packet sent as a ZeroMQ frame: written by <see cref="PacketWriter"/> straight into a native block that
/// becomes the frame (<see cref="ZmqFrameWriter"/>), against the simple way of writing into a reused managed buffer
/// and letting <c>zmq_send</c> copy it.
/// </summary>
[MemoryDiagnoser]
public class PacketFrameBenchmarks
{
    private const int Batch = 1000;
    private PushPullLoop _loop = null!;
    private ZmqFrameWriter _frames = null!;
    private ArrayBufferWriter<byte> _buffer = null!;
    private ZmqMessage _message = null!;
    private byte[] _blob = [];

    /// <summary>Bytes of opaque payload after the packet's fixed fields.</summary>
    [Params(16, 65536)]
    public int PayloadBytes { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _loop = new PushPullLoop();
        _loop.Push.ZeroCopyThreshold = int.MaxValue;
        _frames = new ZmqFrameWriter();
        _buffer = new ArrayBufferWriter<byte>(PayloadBytes + 256);
        _message = new ZmqMessage();
        _blob = new byte[PayloadBytes];
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _message.Dispose();
        _frames.Dispose();
        _loop.Dispose();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Batch)]
    public void ManagedBufferCopiedBySend()
    {
        for (var i = 0; i < Batch; i++)
        {
            _buffer.ResetWrittenCount();
            Write(_buffer, i);
            _loop.Push.Send(_buffer.WrittenSpan);
        }

        Deliver();
    }

    [Benchmark(OperationsPerInvoke = Batch)]
    public void WrittenIntoFrame()
    {
        for (var i = 0; i < Batch; i++)
        {
            Write(_frames, i);
            _frames.MoveTo(_message);
            _loop.Push.Send(_message);
        }

        Deliver();
    }

    private void Write(IBufferWriter<byte> output, int sequence)
    {
        var writer = new PacketWriter(output);
        writer.WriteInt32(sequence);
        writer.WriteInt64(sequence * 7L);
        writer.WriteDouble(sequence * 0.5);
        writer.WriteUtf8("berth packet");
        writer.WriteBytes(_blob);
        writer.Flush();
    }

    private void Deliver()
    {
        _loop.Sent += Batch;
        _loop.WaitFor();
    }
}
