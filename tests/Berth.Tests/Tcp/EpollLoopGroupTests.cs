using Berth.Connections.Transport.Epoll;

namespace Berth.Tests.Tcp;

/// <summary>How many event loops the process runs, as <c>BERTH_EPOLL_LOOPS</c> sets it.</summary>
public sealed class EpollLoopGroupTests
{
    [Theory]
    [InlineData("1", 1)]
    [InlineData("3", 3)]
    public void APositiveCountIsTaken(string setting, int expected) =>
        Assert.Equal(expected, EpollLoopGroup.LoopCount(setting));

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("0")]
    [InlineData("-2")]
    [InlineData("two")]
    public void AnythingElseMeansOnePerCore(string? setting) =>
        Assert.Equal(Environment.ProcessorCount, EpollLoopGroup.LoopCount(setting));
}
