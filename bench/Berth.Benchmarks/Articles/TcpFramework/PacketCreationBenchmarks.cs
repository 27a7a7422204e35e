using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Building one framed packet from a body and reading the body back from a frame, per packet:
/// the source article's allocating packet against writing into pooled memory.
/// </summary>
[MemoryDiagnoser]
public class PacketCreationBenchmarks
{
    private byte[] _body = [];
    private byte[] _frame = [];
    private ushort _id = 7;

    [Params(64, 256, 1024)]
    public int PayloadSize { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _body = new byte[PayloadSize];
        Random.Shared.NextBytes(_body);
        _frame = new AllocatingPacket(_id, _body).Serialize();
    }

    [Benchmark(Baseline = true)]
    public byte[] CreateAllocating() => new AllocatingPacket(_id, _body).Serialize();

    [Benchmark]
    public int CreatePooled()
    {
        var buffer = ArrayPool<byte>.Shared.Rent(AllocatingPacket.HeaderSize + PayloadSize);
        var written = PooledPacketWriter.Write(buffer, _id, _body);
        ArrayPool<byte>.Shared.Return(buffer);
        return written;
    }

    [Benchmark]
    public byte[] ParseBodyLinq() => AllocatingPacket.ParseBody(_frame);

    [Benchmark]
    public int ParseBodySlice() => PooledPacketWriter.ParseBody(_frame).Length;
}
