using System.Buffers;
using Berth.Buffers;

namespace Berth.Tests.Buffers;

public class RingBufferTests
{
    [Fact]
    public void Readable_bytes_wrap_into_two_segments_in_order()
    {
        var pool = new BufferPool();
        using var ring = new RingBuffer(16, 16, pool);
        ring.Write(Bytes(0, 12));
        ring.Consume(10);
        ring.Write(Bytes(12, 10));

        var readable = ring.Readable;
        Assert.False(readable.IsSingleSegment);
        Assert.Equal(Bytes(10, 12), readable.ToArray());
        Assert.Equal(12, ring.Length);
    }

    [Fact]
    public void Growth_keeps_the_data_in_order_across_the_wrap()
    {
        var pool = new BufferPool();
        using var ring = new RingBuffer(16, 1024, pool);
        ring.Write(Bytes(0, 12));
        ring.Consume(8);
        ring.Write(Bytes(12, 10));

        ring.GetWriteMemory(100);
        Assert.True(ring.Capacity >= 114);
        Assert.Equal(Bytes(8, 14), ring.Readable.ToArray());
        Assert.Equal(1, pool.Outstanding);
    }

    [Fact]
    public void It_never_grows_past_its_maximum()
    {
        using var ring = new RingBuffer(16, 64);
        ring.Write(new byte[60]);
        Assert.Throws<InvalidOperationException>(() => ring.GetWriteMemory(5));
        Assert.True(ring.Capacity <= 64);
    }

    [Fact]
    public void Trimming_returns_the_grown_array_once_drained()
    {
        var pool = new BufferPool();
        using var ring = new RingBuffer(16, 4096, pool);
        ring.Write(new byte[3000]);
        Assert.False(ring.TrimExcess());
        ring.Consume(3000);
        Assert.True(ring.TrimExcess());
        Assert.True(ring.Capacity < 3000);
        Assert.Equal(1, pool.Outstanding);
    }

    [Fact]
    public void Dispose_returns_the_array_and_blocks_further_use()
    {
        var pool = new BufferPool();
        var ring = new RingBuffer(16, 64, pool);
        ring.Dispose();
        ring.Dispose();
        Assert.Equal(0, pool.Outstanding);
        Assert.Throws<ObjectDisposedException>(() => ring.GetWriteMemory());
    }

    [Fact]
    public void Advancing_past_the_free_space_is_refused()
    {
        using var ring = new RingBuffer(16, 16);
        Assert.Throws<ArgumentOutOfRangeException>(() => ring.Advance(17));
        Assert.Throws<ArgumentOutOfRangeException>(() => ring.Consume(1));
    }

    private static byte[] Bytes(int start, int count) => Enumerable.Range(start, count).Select(i => (byte)i).ToArray();
}
