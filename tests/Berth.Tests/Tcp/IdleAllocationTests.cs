using System.Collections.Concurrent;
using Berth.Connections;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

/// <summary>
/// A server at rest allocates nothing. With connections open and no traffic, what still runs is the timeout sweeper's
/// pass, once per quarter of the shortest limit (once a second by default). The passes are counted on the thread that
/// makes them (<see cref="GC.GetAllocatedBytesForCurrentThread"/>): process-wide, the test host allocates about 170 B
/// every 100 ms of its own, with no Berth object in the process, which would hide a pass's 64 B. The passes are made
/// here rather than by the timer so they run before the JIT optimizes the pass: a later tier may keep an enumerator
/// off the heap that the first tier allocates.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class IdleAllocationTests(ITestOutputHelper output)
{
    private const int Connections = 20;
    private const int Passes = 20;

    [Fact]
    public async Task SweepingIdleConnectionsAllocatesNothing()
    {
        // No limit on the server, so its own sweeper does not exist and the one below is the only one at work.
        var serverOptions = new BerthServerOptions { SlowConsumerTimeout = null };
        await using var server = EchoTests.Start(serverOptions);
        var clients = new List<BerthClient>();
        try
        {
            await ConnectIdleClients(server, clients);
            var connections = new ConcurrentDictionary<long, Connection>(server.Connections.Select(c => KeyValuePair.Create(c.Id, c)));
            // Limits of an hour: every pass finds every connection within them, and the timer's first turn is far away.
            var limit = TimeSpan.FromHours(1);
            var limits = new ConnectionOptions { IdleTimeout = limit, FrameTimeout = limit, SlowConsumerTimeout = limit };
            using var sweeper = TimeoutSweeper.For(limits, connections)!;

            // The first pass sizes the array the passes reuse.
            sweeper.Sweep();
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var pass = 0; pass < Passes; pass++)
            {
                sweeper.Sweep();
            }

            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            output.WriteLine($"{Passes} passes over {Connections} idle connections: {allocated} B");
            Assert.Equal(0, allocated);
            Assert.Equal(Connections, server.ConnectionCount);
            Assert.All(server.Connections, c => Assert.True(c.IsConnected));
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    /// <summary>
    /// The array a pass reuses follows the number of connections: a pass made when there were none, then two, then all
    /// twenty, closes each one whose idle limit passed, every one of them reached once the array had to grow.
    /// </summary>
    [Fact]
    public async Task APassReachesEveryConnectionAsTheirNumberGrows()
    {
        var handler = new RecordingHandler { Echo = false };
        await using var server = EchoTests.Start(new BerthServerOptions { SlowConsumerTimeout = null }, handler);
        var clients = new List<BerthClient>();
        try
        {
            await ConnectIdleClients(server, clients);
            var all = server.Connections.ToArray();
            var connections = new ConcurrentDictionary<long, Connection>();
            using var sweeper = TimeoutSweeper.For(new ConnectionOptions { IdleTimeout = TimeSpan.FromMilliseconds(1), SlowConsumerTimeout = null }, connections)!;
            // Every connection has been idle since it connected; this makes sure the 1 ms limit is behind them all.
            var idleSince = Environment.TickCount64;
            await Waits.Until(() => Environment.TickCount64 - idleSince > 2);

            sweeper.Sweep();
            foreach (var count in (int[])[2, Connections])
            {
                foreach (var connection in all.Take(count))
                {
                    connections[connection.Id] = connection;
                }

                sweeper.Sweep();
                await Waits.Until(() => handler.Disconnects.Count == count);
            }

            Assert.All(handler.Disconnects, d => Assert.Equal(DisconnectReason.IdleTimeout, d.Info.Reason));
            Assert.Equal(all.Select(c => c.Id).Order(), handler.Disconnects.Select(d => d.Connection.Id).Order());
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    /// <summary>Connects <see cref="Connections"/> clients that send nothing, into <paramref name="clients"/> so the
    /// caller disposes every one that connected even when a later one fails.</summary>
    private static async Task ConnectIdleClients(BerthServer server, List<BerthClient> clients)
    {
        var clientOptions = new BerthClientOptions { Port = server.EndPoint.Port };
        for (var i = 0; i < Connections; i++)
        {
            var client = new BerthClient(clientOptions, new RecordingHandler { Echo = false });
            clients.Add(client);
            await client.ConnectAsync().Within();
        }

        await Waits.Until(() => server.ConnectionCount == Connections);
    }
}
