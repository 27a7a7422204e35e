using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// The source article's "100 packets of 64 B", per packet: 100 allocating packets against 100
/// packets written back to back into one pooled send buffer, as a batched sender does.
/// </summary>
[MemoryDiagnoser]
public class PacketBatchBenchmarks
{
    private const int Packets = 100;
    private const int PayloadSize = 64;
    private readonly byte[] _body = new byte[PayloadSize];
    private ushort _id = 7;

    [Benchmark(Baseline = true, OperationsPerInvoke = Packets)]
    public int CreateAllocating()
    {
        var total = 0;
        for (var i = 0; i < Packets; i++)
        {
            total += new AllocatingPacket(_id, _body).Serialize().Length;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Packets)]
    public int CreatePooledBatch()
    {
        var buffer = ArrayPool<byte>.Shared.Rent(Packets * (AllocatingPacket.HeaderSize + PayloadSize));
        var offset = 0;
        for (var i = 0; i < Packets; i++)
        {
            offset += PooledPacketWriter.Write(buffer.AsSpan(offset), _id, _body);
        }

        ArrayPool<byte>.Shared.Return(buffer);
        return offset;
    }
}
