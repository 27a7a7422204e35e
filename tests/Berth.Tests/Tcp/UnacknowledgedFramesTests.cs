using Berth.Connections.Send;

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
    public void PastTheFrameEndsTheLastCheckpointWithinTheAcknowledgedBytesCounts()
    {
        var ring = new UnacknowledgedFrames(4);
        const int Frame = UnacknowledgedFrames.CheckpointInterval / 16;
        const int Frames = UnacknowledgedFrames.Capacity + 44;
        for (var i = 0; i < Frames; i++)
        {
            ring.Accepted(Frame);
        }

        const long Total = (long)Frames * Frame;
        Assert.Equal(((long)Frames, Total), ring.After(Frame * 3));
        Assert.Equal((Frames - 16L, Total - (16 * Frame)), ring.After((Frame * 17) + 1));
    }

    [Fact]
    public void PastBothRingsTheCountIsNeverTooLow()
    {
        var ring = new UnacknowledgedFrames(4);
        const int Frame = UnacknowledgedFrames.CheckpointInterval;
        for (var i = 0; i < 2 * UnacknowledgedFrames.Capacity; i++)
        {
            ring.Accepted(Frame);
        }

        var total = 2L * UnacknowledgedFrames.Capacity * Frame;
        var (frames, bytes) = ring.After(Frame + 1);
        Assert.InRange(frames, (2L * UnacknowledgedFrames.Capacity) - 1, 2L * UnacknowledgedFrames.Capacity);
        Assert.Equal(total - Frame - 1, bytes);
    }

    [Fact]
    public void TheFirstFramesNeedNoArrayAndStayExactWhenOneIsRented()
    {
        var ring = new UnacknowledgedFrames(4);
        for (var i = 0; i < UnacknowledgedFrames.InlineCapacity; i++)
        {
            ring.Accepted(10);
        }

        Assert.False(ring.HoldsArray);
        ring.Accepted(10);
        Assert.True(ring.HoldsArray);
        Assert.Equal((5L, 50L), ring.After(0));
        Assert.Equal((3L, 30L), ring.After(25));
        ring.Release();
    }

    [Fact]
    public void OnceThePeerHasEverythingTheRecordIsForgottenAndStartsAgain()
    {
        var ring = new UnacknowledgedFrames(4);
        for (var i = 0; i < 10; i++)
        {
            ring.Accepted(10);
        }

        ring.ForgetIfAcknowledged(99);
        Assert.True(ring.HoldsArray);
        Assert.Equal((1L, 10L), ring.After(99));

        ring.ForgetIfAcknowledged(100);
        Assert.False(ring.HoldsArray);
        Assert.False(ring.Recording);
        Assert.Equal((0L, 0L), ring.After(100));

        ring.Accepted(10);
        ring.Accepted(20);
        Assert.Equal((2L, 30L), ring.After(105));
        Assert.Equal((1L, 20L), ring.After(110));
    }
}
