using Berth.Cli.Load;
using Berth.Connections;
using Berth.Tests.Tcp;
using Xunit.Abstractions;

namespace Berth.Tests.Cli;

/// <summary>
/// <c>berth load</c> on Berth's own client, closed loop against an echo server in the same process, allocates nothing
/// per message: the process-wide allocated bytes over the measurement window, divided by the messages echoed in it,
/// stay far below the smallest object (24 B). What is left is the run's fixed work (the progress line, the runtime's
/// timers), which a few bytes per message cover as long as the window holds some thousands of messages.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class LoadAllocationTests(ITestOutputHelper output)
{
    private const double BytesPerMessageAllowed = 4;

    [Theory]
    [InlineData(64)]
    [InlineData(1024)]
    public async Task AClosedLoopRunAllocatesNothingPerMessage(int size)
    {
        await using var server = EchoTests.Start(new BerthServerOptions());
        long before = 0, after = 0;
        var runner = new LoadRunner(new LoadSettings
        {
            Host = "127.0.0.1",
            Port = server.EndPoint.Port,
            Connections = 100,
            SizeMin = size,
            SizeMax = size,
            Pipeline = 16,
            Warmup = TimeSpan.FromSeconds(1),
            Duration = TimeSpan.FromSeconds(3),
        })
        {
            MeasurementStarting = () => before = GC.GetTotalAllocatedBytes(precise: true),
            MeasurementEnded = () => after = GC.GetTotalAllocatedBytes(precise: true),
        };

        var result = await runner.RunAsync(CancellationToken.None).Within();

        var perMessage = (double)(after - before) / result.Messages;
        output.WriteLine($"{size} B x 100: {after - before} B over {result.Messages} messages, {perMessage:F3} B/msg");
        Assert.Equal(0, result.Errors);
        Assert.True(result.Messages > 0, "nothing was echoed");
        Assert.True(perMessage < BytesPerMessageAllowed, $"{perMessage:F3} B per message ({after - before} B over {result.Messages})");
    }

    /// <summary>At a rate, requests are sent from the epoll loops' timers (<see cref="LoadPacer"/>): no allocation per firing either.</summary>
    [Fact]
    public async Task ARunAtARateAllocatesNothingPerMessage()
    {
        await using var server = EchoTests.Start(new BerthServerOptions());
        long before = 0, after = 0;
        var runner = new LoadRunner(new LoadSettings
        {
            Host = "127.0.0.1",
            Port = server.EndPoint.Port,
            Connections = 100,
            SizeMin = 4096,
            SizeMax = 16384,
            Rate = 100,
            Pipeline = 16,
            Warmup = TimeSpan.FromSeconds(1),
            Duration = TimeSpan.FromSeconds(3),
        })
        {
            MeasurementStarting = () => before = GC.GetTotalAllocatedBytes(precise: true),
            MeasurementEnded = () => after = GC.GetTotalAllocatedBytes(precise: true),
        };

        var result = await runner.RunAsync(CancellationToken.None).Within();

        var perMessage = (double)(after - before) / result.Messages;
        output.WriteLine($"4-16 KiB x 100 at 100/s: {after - before} B over {result.Messages} messages, {perMessage:F3} B/msg");
        Assert.Equal(0, result.Errors);
        Assert.True(result.Messages > 0, "nothing was echoed");
        Assert.True(perMessage < BytesPerMessageAllowed, $"{perMessage:F3} B per message ({after - before} B over {result.Messages})");
    }
}
