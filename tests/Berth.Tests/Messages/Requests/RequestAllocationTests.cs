using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages.Requests;
using Berth.Tests.Tcp;
using Xunit.Abstractions;

namespace Berth.Tests.Messages.Requests;

/// <summary>
/// A round trip of struct messages (request sent in its envelope, handled, reply matched by correlation id, the pooled
/// completion source awaited and returned) allocates nothing: process-wide, 10N round trips allocate less than
/// <see cref="AllocationGrowth.Allowance"/> more than N, on the server and the client side together.
/// </summary>
[Collection(nameof(Tcp.AllocationTests))]
public sealed class RequestAllocationTests(ITestOutputHelper output)
{
    private const int Outstanding = 16;
    private const int RoundTrips = 10_000;

    [Theory]
    [InlineData(HandlerScheduling.Inline, false)]
    [InlineData(HandlerScheduling.Inline, true)]
    [InlineData(HandlerScheduling.ThreadPool, false)]
    public async Task A_struct_round_trip_allocates_nothing(HandlerScheduling scheduling, bool asynchronousHandler)
    {
        var router = asynchronousHandler
            ? new PacketRouter().OnRequestAsync(static (Connection _, Ping ping) => ValueTask.FromResult(new Pong { Value = ping.Value + 1 }))
            : new PacketRouter().OnRequest(static (Connection _, in Ping ping) => new Pong { Value = ping.Value + 1 });
        await using var peers = await RequestPeers.StartAsync(
            router,
            new BerthServerOptions { HandlerScheduling = scheduling },
            new BerthClientOptions { HandlerScheduling = scheduling });
        var replies = new ValueTask<Pong>[Outstanding];

        var growth = await Task.Factory.StartNew(
            () =>
            {
                Run(peers.Connection, replies, 50_000).GetAwaiter().GetResult();
                return AllocationGrowth.Measure(
                    count => Run(peers.Connection, replies, count).GetAwaiter().GetResult(),
                    RoundTrips,
                    output,
                    $"round trips, {scheduling}, asynchronous handler {asynchronousHandler}");
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * RoundTrips} round trips than over {RoundTrips}");
    }

    private static async Task Run(Connection connection, ValueTask<Pong>[] replies, int count)
    {
        for (var done = 0; done < count; done += Outstanding)
        {
            for (var i = 0; i < Outstanding; i++)
            {
                replies[i] = connection.RequestAsync<Ping, Pong>(new Ping { Value = i });
            }

            for (var i = 0; i < Outstanding; i++)
            {
                var reply = await replies[i];
                if (reply.Value != i + 1)
                {
                    throw new InvalidOperationException($"Reply {reply.Value} to request {i}.");
                }
            }
        }
    }
}
