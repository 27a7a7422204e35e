using Berth.Tcp.Send;

namespace Berth.Tests.Tcp;

public sealed class UnacknowledgedFramesTests
{
    [Fact]
    public void NothingAcceptedIsNothingUnsent() =>
        Assert.Equal((0L, 0L), new UnacknowledgedFrames(4).After(0));

    [Theory]
    [InlineData(0, 3, 60)]
    [InlineData(9, 3, 60)]
    [InlineData(10, 2, 50)]
    [InlineData(29, 2, 50)]
    [InlineData(30, 1, 30)]
    [InlineData(59, 1, 30)]
    [InlineData(60, 0, 0)]
    [InlineData(61, 0, 0)]
    public void AFramePartlyAcknowledgedCountsAsUnsent(long acknowledged, long frames, long bytes)
    {
        var ring = new UnacknowledgedFrames(4);
        ring.Accepted(10);
        ring.Accepted(20);
        ring.Accepted(30);
        Assert.Equal((frames, bytes), ring.After(acknowledged));
    }

    [Fact]
    public void WithinTheRingTheCountIsExact()
    {
        var ring = new UnacknowledgedFrames(4);
        for (var i = 0; i < 10 * UnacknowledgedFrames.Capacity; i++)
        {
            ring.Accepted(8);
        }

        var total = 10L * UnacknowledgedFrames.Capacity * 8;
        Assert.Equal((UnacknowledgedFrames.Capacity - 1L, (UnacknowledgedFrames.Capacity - 1) * 8L), ring.After(total - ((UnacknowledgedFrames.Capacity - 1) * 8)));
        Assert.Equal((5L, 40L), ring.After(total - 40));
    }

    [Fact]
    public void BeyondTheRingTheCountIsNeverTooLow()
    {
        var ring = new UnacknowledgedFrames(4);
        for (var i = 0; i < 10 * UnacknowledgedFrames.Capacity; i++)
        {
            ring.Accepted(8);
        }

        var total = 10L * UnacknowledgedFrames.Capacity * 8;
        var unacknowledged = (UnacknowledgedFrames.Capacity + 100) * 8L;
        var (frames, bytes) = ring.After(total - unacknowledged);
        Assert.InRange(frames, UnacknowledgedFrames.Capacity + 100, 10L * UnacknowledgedFrames.Capacity);
        Assert.Equal(unacknowledged, bytes);
        Assert.Equal((10L * UnacknowledgedFrames.Capacity, total), ring.After(0));
    }
}
