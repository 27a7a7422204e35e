using BenchmarkDotNet.Attributes;
using Berth.Zmq;

namespace Berth.Benchmarks.Zmq;

/// <summary>
/// The two paths <see cref="ZmqSocket.Send(ReadOnlySpan{byte}, bool)"/> chooses between by
/// <see cref="ZmqSocket.ZeroCopyThreshold"/>: <c>zmq_send</c> copying the span into a libzmq allocation, or one copy
/// into a pooled array handed over zero-copy. Their crossing is <see cref="ZmqSendStrategy.DefaultZeroCopyThreshold"/>.
/// </summary>
[MemoryDiagnoser]
public class ZeroCopyThresholdBenchmarks
{
    private const int Batch = 1000;
    private PushPullLoop _loop = null!;
    private byte[] _payload = [];

    [Params(1024, 8192, 32768, 65536, 131072, 262144)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _loop = new PushPullLoop();
        _payload = new byte[Size];
        Random.Shared.NextBytes(_payload);
    }

    [GlobalCleanup]
    public void Cleanup() => _loop.Dispose();

    [Benchmark(Baseline = true, OperationsPerInvoke = Batch)]
    public void Copied() => SendBatch(int.MaxValue);

    [Benchmark(OperationsPerInvoke = Batch)]
    public void ZeroCopy() => SendBatch(0);

    private void SendBatch(int threshold)
    {
        _loop.Push.ZeroCopyThreshold = threshold;
        for (var i = 0; i < Batch; i++)
        {
            _loop.Push.Send(_payload);
        }

        _loop.Sent += Batch;
        _loop.WaitFor();
    }
}
