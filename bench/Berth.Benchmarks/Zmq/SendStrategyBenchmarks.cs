using System.Buffers;
using BenchmarkDotNet.Attributes;
using Berth.Zmq;

namespace Berth.Benchmarks.Zmq;

/// <summary>
/// The article's four ways to get a payload that already exists in managed memory onto a PUSH socket, per message
/// size, delivered through tcp loopback to a PULL (docs/decisions/zmq-send-strategy.md).
/// </summary>
[MemoryDiagnoser]
public class SendStrategyBenchmarks
{
    private const int Batch = 1000;
    private PushPullLoop _loop = null!;
    private ZmqMessage _message = null!;
    private byte[] _payload = [];

    [Params(64, 512, 1024, 65536, 262144)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _loop = new PushPullLoop();
        _message = new ZmqMessage();
        _payload = new byte[Size];
        Random.Shared.NextBytes(_payload);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _message.Dispose();
        _loop.Dispose();
    }

    /// <summary>A new array per message, copied by <c>zmq_send</c>.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Batch)]
    public void ByteArray()
    {
        _loop.Push.ZeroCopyThreshold = int.MaxValue;
        for (var i = 0; i < Batch; i++)
        {
            var copy = new byte[Size];
            _payload.CopyTo(copy, 0);
            _loop.Push.Send(copy);
        }

        Deliver();
    }

    /// <summary>A pooled array per message, copied by <c>zmq_send</c>.</summary>
    [Benchmark(OperationsPerInvoke = Batch)]
    public void ArrayPool()
    {
        _loop.Push.ZeroCopyThreshold = int.MaxValue;
        for (var i = 0; i < Batch; i++)
        {
            var rented = ArrayPool<byte>.Shared.Rent(Size);
            _payload.CopyTo(rented, 0);
            _loop.Push.Send(rented.AsSpan(0, Size));
            ArrayPool<byte>.Shared.Return(rented);
        }

        Deliver();
    }

    /// <summary>A libzmq-allocated frame (<c>zmq_msg_init_size</c>) filled from the payload, sent without further copy.</summary>
    [Benchmark(OperationsPerInvoke = Batch)]
    public void Message()
    {
        for (var i = 0; i < Batch; i++)
        {
            _message.InitSize(Size);
            _payload.CopyTo(_message.Data);
            _loop.Push.Send(_message);
        }

        Deliver();
    }

    /// <summary>A pooled array filled from the payload and handed to libzmq without copy (free callback returns it).</summary>
    [Benchmark(OperationsPerInvoke = Batch)]
    public void ZeroCopy()
    {
        for (var i = 0; i < Batch; i++)
        {
            _message.InitPooled(Size);
            _payload.CopyTo(_message.Data);
            _loop.Push.Send(_message);
        }

        Deliver();
    }

    private void Deliver()
    {
        _loop.Sent += Batch;
        _loop.WaitFor();
    }
}
