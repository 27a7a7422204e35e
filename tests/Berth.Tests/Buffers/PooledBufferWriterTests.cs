using System.Buffers;
using Berth.Buffers;

namespace Berth.Tests.Buffers;

public class PooledBufferWriterTests
{
    [Fact]
    public void Written_bytes_come_back_in_order_across_segments()
    {
        var pool = new BufferPool();
        using var writer = new PooledBufferWriter(pool, segmentSize: 16);
        var expected = Enumerable.Range(0, 100).Select(i => (byte)i).ToArray();
        foreach (var chunk in expected.Chunk(7))
        {
            chunk.CopyTo(writer.GetSpan(chunk.Length));
            writer.Advance(chunk.Length);
        }

        Assert.Equal(100, writer.WrittenCount);
        Assert.Equal(expected, writer.WrittenSequence.ToArray());
        Assert.True(pool.Outstanding > 1);
    }

    [Fact]
    public void Reset_returns_every_array_and_the_writer_is_reusable()
    {
        var pool = new BufferPool();
        using var writer = new PooledBufferWriter(pool, segmentSize: 16);
        writer.GetSpan(100);
        writer.Advance(100);
        writer.Reset();
        Assert.Equal(0, pool.Outstanding);
        Assert.True(writer.WrittenSequence.IsEmpty);

        writer.GetSpan(1)[0] = 9;
        writer.Advance(1);
        Assert.Equal(new byte[] { 9 }, writer.WrittenSequence.ToArray());
    }

    [Fact]
    public void Advancing_past_the_span_is_refused()
    {
        using var writer = new PooledBufferWriter(segmentSize: 16);
        var length = writer.GetSpan(1).Length;
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.Advance(length + 1));
    }
}
