using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The source article's CircularBuffer vs QueueBuffer table: one chunk of received data written
/// into the receive buffer and read back out, per chunk. Both buffers are created once and reach a
/// steady state, so the allocations measured are per chunk, not the buffer's own construction.
/// </summary>
[MemoryDiagnoser]
public class ReceiveBufferBenchmarks
{
    private const int Capacity = 8192;
    private readonly QueueOfBytesBuffer _queue = new(Capacity);
    private readonly ArrayRingBuffer _ring = new(Capacity);
    private byte[] _chunk = [];
    private byte[] _destination = [];

    [Params(64, 512, 4096)]
    public int DataSize { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _chunk = new byte[DataSize];
        Random.Shared.NextBytes(_chunk);
        _destination = new byte[DataSize];
        _ring.Write(new byte[Capacity / 3]);
        _ring.Read(new byte[Capacity / 3]);
    }

    [Benchmark(Baseline = true)]
    public int QueueOfBytesWriteRead()
    {
        _queue.Write(_chunk);
        return _queue.Read(_destination);
    }

    [Benchmark]
    public int RingBufferWriteRead()
    {
        _ring.Write(_chunk);
        return _ring.Read(_destination);
    }
}
