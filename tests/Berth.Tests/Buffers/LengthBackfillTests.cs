using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Tests.Buffers;

public class LengthBackfillTests
{
    [Fact]
    public void The_length_is_filled_in_after_the_body()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);
        var length = writer.ReserveLength(LengthFieldFormat.Berth);
        writer.WriteInt32(42);
        writer.WriteAscii("hi");
        writer.BackfillLength(length);
        writer.Flush();

        Assert.Equal(4 + 8, output.WrittenCount);
        Assert.Equal(8u, BinaryPrimitives.ReadUInt32LittleEndian(output.WrittenSpan));
    }

    [Fact]
    public void A_body_that_outgrows_its_segment_still_gets_its_length_in_a_stable_output()
    {
        var pool = new BufferPool();
        using var output = new PooledBufferWriter(pool, segmentSize: 32);
        var writer = new PacketWriter(output, Endianness.Big);
        var length = writer.ReserveLength(LengthFieldFormat.Telepathy);
        for (var i = 0; i < 100; i++)
        {
            writer.WriteInt64(i);
        }

        writer.BackfillLength(length);
        writer.Flush();

        var frame = output.WrittenSequence;
        Assert.False(frame.IsSingleSegment);
        var header = new byte[4];
        frame.Slice(0, 4).CopyTo(header);
        Assert.Equal(800u, BinaryPrimitives.ReadUInt32BigEndian(header));
    }

    [Fact]
    public void A_body_that_would_leave_its_length_in_movable_memory_is_refused()
    {
        var output = new ArrayBufferWriter<byte>(16);
        var exception = Assert.Throws<InvalidOperationException>(() =>
        {
            var writer = new PacketWriter(output);
            writer.ReserveLength(LengthFieldFormat.Berth);
            writer.WriteBytes(new byte[1024]);
        });
        Assert.Contains("IStableBufferWriter", exception.Message);
    }

    [Fact]
    public void A_body_over_the_maximum_is_refused_when_the_length_is_written()
    {
        using var output = new PooledBufferWriter();
        Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            var writer = new PacketWriter(output);
            var length = writer.ReserveLength(LengthFieldFormat.Berth.WithMaxBodyLength(4));
            writer.WriteInt64(1);
            writer.BackfillLength(length);
        });
    }

    [Fact]
    public void FastPortSharp_lengths_count_their_own_two_bytes()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);
        var length = writer.ReserveLength(LengthFieldFormat.FastPortSharp);
        writer.WriteInt32(7);
        writer.BackfillLength(length);
        writer.Flush();
        Assert.Equal(6, BinaryPrimitives.ReadUInt16LittleEndian(output.WrittenSpan));
    }
}
