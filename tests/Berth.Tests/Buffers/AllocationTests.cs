using System.Buffers;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Tests.Buffers;

/// <summary>
/// Steady state allocates nothing: the counts are per thread and deterministic, so the assertion is exact.
/// </summary>
public class AllocationTests
{
    private const int Packets = 10_000;

    [Fact]
    public void Writing_framing_and_parsing_ten_thousand_packets_allocates_nothing_once_warm()
    {
        var pool = new BufferPool();
        using var output = new PooledBufferWriter(pool);
        var decoder = new FrameDecoder(LengthFieldFormat.Berth);
        var text = new char[64];

        RoundTrip(output, decoder, text, 100);
        var before = GC.GetAllocatedBytesForCurrentThread();
        var checksum = RoundTrip(output, decoder, text, Packets);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.NotEqual(0, checksum);
        output.Reset();
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public void A_ring_buffer_that_grows_and_trims_allocates_nothing_once_warm()
    {
        var pool = new BufferPool();
        using var ring = new RingBuffer(1024, 64 * 1024, pool);
        var payload = new byte[8192];

        GrowAndDrain(ring, payload, 10);
        var before = GC.GetAllocatedBytesForCurrentThread();
        GrowAndDrain(ring, payload, 1_000);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(0, allocated);
        Assert.Equal(1, pool.Outstanding);
    }

    private static long RoundTrip(PooledBufferWriter output, FrameDecoder decoder, char[] text, int packets)
    {
        long checksum = 0;
        for (var i = 0; i < packets; i++)
        {
            var writer = new PacketWriter(output);
            var length = writer.ReserveLength(LengthFieldFormat.Berth);
            writer.WriteInt32(i);
            writer.WriteUInt64((ulong)i * 31);
            writer.WriteDouble(i * 0.5);
            writer.WriteAscii("player-name", StringLengthPrefix.VarInt);
            writer.WriteFixedAscii("zone", 16);
            writer.BackfillLength(length);
            writer.Flush();

            var buffer = output.WrittenSequence;
            while (decoder.TryReadFrame(ref buffer, out var body) == FrameReadResult.Frame)
            {
                var reader = new PacketReader(body);
                checksum += reader.ReadInt32();
                checksum += (long)reader.ReadUInt64();
                checksum += (long)reader.ReadDouble();
                checksum += reader.ReadUtf8(text, StringLengthPrefix.VarInt);
            }

            output.Reset();
        }

        return checksum;
    }

    private static void GrowAndDrain(RingBuffer ring, byte[] payload, int rounds)
    {
        for (var round = 0; round < rounds; round++)
        {
            for (var write = 0; write < 5; write++)
            {
                ring.Write(payload);
            }

            ring.Consume(ring.Length);
            ring.TrimExcess();
        }
    }
}
