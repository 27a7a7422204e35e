using Berth.Tcp;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

[CollectionDefinition(nameof(AllocationTests), DisableParallelization = true)]
public sealed class AllocationCollection;

/// <summary>
/// Steady-state echo must allocate nothing per message on the server. The client is a blocking socket with
/// buffers allocated before the measurement, so it allocates nothing either; the measured process-wide count of
/// <see cref="GC.GetTotalAllocatedBytes(bool)"/> is then the server's, plus whatever the runtime allocates in the
/// background. The bytes allocated must not grow with the number of echoes (<see cref="AllocationGrowth"/>).
/// The collection runs alone so other tests add nothing.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class AllocationTests(ITestOutputHelper output)
{
    private const int Pipeline = 16;

    [Theory]
    [InlineData(64, HandlerScheduling.Inline)]
    [InlineData(4096, HandlerScheduling.Inline)]
    [InlineData(65536, HandlerScheduling.Inline)]
    [InlineData(64, HandlerScheduling.ThreadPool)]
    [InlineData(4096, HandlerScheduling.ThreadPool)]
    [InlineData(65536, HandlerScheduling.ThreadPool)]
    public async Task EchoRoundTripsAllocateNothingPerMessageAfterWarmUp(int size, HandlerScheduling scheduling)
    {
        const int messages = 10_000;
        var options = new TcpServerOptions { HandlerScheduling = scheduling };
        await using var server = EchoTests.Start(options);
        using var client = new RawClient(server.EndPoint);
        var burst = new byte[Pipeline * (4 + size)];
        for (var i = 0; i < Pipeline; i++)
        {
            RawClient.Frame(new byte[size]).CopyTo(burst, i * (4 + size));
        }

        var replies = new byte[burst.Length];

        // The blocking client gets a thread of its own: blocking a pool thread would make the pool inject threads,
        // and that allocates during the measurement.
        var growth = await Task.Factory.StartNew(
            () =>
            {
                RoundTrips(client, burst, replies, 20_000);
                return AllocationGrowth.Measure(count => RoundTrips(client, burst, replies, count), messages, output, $"{size} B, {scheduling}");
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * messages} echoes than over {messages}");
    }

    private static void RoundTrips(RawClient client, byte[] burst, byte[] replies, int messages)
    {
        for (var sent = 0; sent < messages; sent += Pipeline)
        {
            client.Send(burst);
            client.ReceiveExactly(replies);
        }
    }
}
