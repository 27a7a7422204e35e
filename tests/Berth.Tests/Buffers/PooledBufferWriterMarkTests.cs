using System.Buffers;
using Berth.Buffers;

namespace Berth.Tests.Buffers;

/// <summary>What the send queue needs of the writer: take a frame back whole, and hand its arrays to a gather send.</summary>
public class PooledBufferWriterMarkTests
{
    [Fact]
    public void Rollback_forgets_what_followed_the_mark_and_returns_the_arrays_rented_since()
    {
        var pool = new BufferPool();
        using var writer = new PooledBufferWriter(pool, segmentSize: 16);
        Write(writer, 10, 1);
        var mark = writer.Mark();
        var outstanding = pool.Outstanding;
        Write(writer, 100, 2);
        Assert.True(pool.Outstanding > outstanding);

        writer.Rollback(mark);

        Assert.Equal(outstanding, pool.Outstanding);
        Assert.Equal(10, writer.WrittenCount);
        Assert.Equal(Enumerable.Repeat((byte)1, 10), writer.WrittenSequence.ToArray());
        Write(writer, 3, 3);
        byte[] expected = [.. Enumerable.Repeat((byte)1, 10), 3, 3, 3];
        Assert.Equal(expected, writer.WrittenSequence.ToArray());
    }

    [Fact]
    public void The_segments_hold_the_written_bytes_in_order()
    {
        using var writer = new PooledBufferWriter(new BufferPool(), segmentSize: 16);
        var expected = new List<byte>();
        for (var i = 0; i < 20; i++)
        {
            Write(writer, 7, (byte)i);
            expected.AddRange(Enumerable.Repeat((byte)i, 7));
        }

        var gathered = new List<byte>();
        for (var i = 0; i < writer.SegmentCount; i++)
        {
            gathered.AddRange(writer.Segment(i));
        }

        Assert.True(writer.SegmentCount > 1);
        Assert.Equal(expected, gathered);
        Assert.Equal(expected, writer.WrittenSequence.ToArray());
    }

    [Fact]
    public void Rolling_back_to_the_start_returns_every_array()
    {
        var pool = new BufferPool();
        using var writer = new PooledBufferWriter(pool, segmentSize: 16);
        var start = writer.Mark();
        Write(writer, 50, 1);
        _ = writer.WrittenSequence;
        writer.Rollback(start);
        Assert.Equal(0, pool.Outstanding);
        Assert.Equal(0, writer.SegmentCount);
        Assert.True(writer.WrittenSequence.IsEmpty);
    }

    private static void Write(PooledBufferWriter writer, int count, byte value)
    {
        for (var i = 0; i < count; i++)
        {
            writer.GetSpan(1)[0] = value;
            writer.Advance(1);
        }
    }
}
