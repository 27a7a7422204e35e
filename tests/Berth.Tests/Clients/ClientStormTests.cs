using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Globalization;
using Berth.Cli.Load;
using Berth.Connections;
using Berth.Tests.Cli;

namespace Berth.Tests.Clients;

[CollectionDefinition(nameof(ClientStormTests), DisableParallelization = true)]
public sealed class ClientStormCollection;

/// <summary>
/// Ten thousand <see cref="BerthClient"/>s made from one options object against one <c>berth serve</c>, run as its own
/// process so each side has its own descriptors: a connect storm, and a reconnect storm after the server restarts on
/// the same port. The server's own count of its connections, printed as it stops, is the witness that every client
/// reached it. Runs alone, so the heap measured around the clients is theirs.
/// </summary>
[Collection(nameof(ClientStormTests))]
public sealed class ClientStormTests
{
    private const int Clients = 10_000;

    /// <summary>Only keeps a broken run from hanging; ten thousand connects on a starved machine can take a while.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task TenThousandClientsConnectAtOnceAndEachEchoes()
    {
        RaiseOpenFileLimit();
        var server = await ServeAsync("0");
        await using var serving = server.Process;
        var handler = new CountingHandler();
        var options = new BerthClientOptions { Port = server.Port, ConnectTimeout = Patience };
        var heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        var clients = Enumerable.Range(0, Clients).Select(_ => new BerthClient(options, handler)).ToArray();
        try
        {
            await Task.WhenAll(clients.Select(client => client.ConnectAsync())).WaitAsync(Patience);
            EchoOnce(clients);
            await Until(() => handler.Echoes == Clients);
            await Until(() => options.BufferPool.Outstanding == 0);

            var idleBytes = (GC.GetTotalMemory(forceFullCollection: true) - heapBefore) / (double)Clients;
            Assert.True(idleBytes <= 8 * 1024, $"{idleBytes:N0} B of managed heap per idle client connection");
            Assert.Equal(Clients, await ConnectionsCountedAsync(serving));
        }
        finally
        {
            await Task.WhenAll(clients.Select(client => client.DisposeAsync().AsTask())).WaitAsync(Patience);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task TenThousandClientsReconnectAfterTheServerRestartsOnTheSamePort()
    {
        RaiseOpenFileLimit();
        var first = await ServeAsync("0");
        var handler = new CountingHandler();
        var scheduled = new ConcurrentQueue<(TimeSpan Delay, TimeSpan Window)>();
        var options = new BerthClientOptions
        {
            Port = first.Port,
            ConnectTimeout = Patience,
            Reconnect = true,
            ReconnectScheduled = (delay, window) => scheduled.Enqueue((delay, window)),
        };
        var clients = Enumerable.Range(0, Clients).Select(_ => new BerthClient(options, handler)).ToArray();
        (TimeSpan Delay, TimeSpan Window)[] drawn;
        try
        {
            await using (first.Process)
            {
                await Task.WhenAll(clients.Select(client => client.ConnectAsync())).WaitAsync(Patience);
                EchoOnce(clients);
                await Until(() => handler.Echoes == Clients);
                Assert.Equal(Clients, await ConnectionsCountedAsync(first.Process));
            }

            await Until(() => handler.Disconnects == Clients);
            var second = await ServeAsync(first.Port.ToString(CultureInfo.InvariantCulture));
            await using (second.Process)
            {
                await Until(() => clients.All(client => client.Connection is { IsConnected: true }));
                drawn = [.. scheduled];
                EchoOnce(clients);
                await Until(() => handler.Echoes == 2 * Clients);
                Assert.Equal(Clients, await ConnectionsCountedAsync(second.Process));
            }
        }
        finally
        {
            await Task.WhenAll(clients.Select(client => client.DisposeAsync().AsTask())).WaitAsync(Patience);
        }

        // Only the reconnects after the restart count: stopping the second server sets off more.
        // The first attempts' delays were drawn over one window, widened for ten thousand clients, and cover it evenly:
        // every tenth of the window got at least half its share, so the clients did not come back clustered.
        var window = ReconnectWindow.First(options, Clients);
        Assert.Equal(TimeSpan.FromTicks(ReconnectWindow.PerClient.Ticks * Clients), window);
        var firstAttempts = drawn.Where(s => s.Window == window).Select(s => s.Delay).ToArray();
        Assert.Equal(Clients, firstAttempts.Length);
        Assert.All(firstAttempts, delay => Assert.InRange(delay, TimeSpan.Zero, window));
        var tenths = firstAttempts.GroupBy(delay => Math.Min(9, (int)(10 * delay / window))).ToDictionary(g => g.Key, g => g.Count());
        for (var tenth = 0; tenth < 10; tenth++)
        {
            Assert.True(tenths.GetValueOrDefault(tenth) >= Clients / 20, $"tenth {tenth} of the window: {tenths.GetValueOrDefault(tenth)} of {Clients} first attempts");
        }

        // A retry after a refused attempt drew from a doubled window.
        Assert.All(drawn.Where(s => s.Window != window), s => Assert.InRange(s.Delay, TimeSpan.Zero, s.Window));
        Assert.All(drawn.Where(s => s.Window != window), s => Assert.True(s.Window > window));
    }

    /// <summary>Both sides hold a descriptor per connection, and a shell's soft limit is often 1,024.</summary>
    private static void RaiseOpenFileLimit()
    {
        var limit = OpenFileLimit.RaiseFor(Clients);
        if (limit is { } soft && OpenFileLimit.SessionsWithin(soft) < Clients)
        {
            Assert.Fail($"The open-file limit is {soft} and its hard limit does not allow {Clients} client connections plus "
                + $"{OpenFileLimit.Reserved} spare; raise it (ulimit -Hn {Clients + 1024}, or LimitNOFILE= for the CI runner) and run again.");
        }
    }

    private static async Task<(BerthProcess Process, int Port)> ServeAsync(string port)
    {
        var serve = new BerthProcess("serve", "--port", port, "--max-connections", (2 * Clients).ToString(CultureInfo.InvariantCulture), "--idle-timeout", "0");
        var line = await serve.LineStartingWithAsync("listening on ");
        return (serve, int.Parse(line[(line.LastIndexOf(':') + 1)..], CultureInfo.InvariantCulture));
    }

    /// <summary>Stops the server with SIGTERM and returns how many connections it said it was closing.</summary>
    private static async Task<int> ConnectionsCountedAsync(BerthProcess serve)
    {
        await serve.SignalAsync("TERM");
        var line = await serve.LineStartingWithAsync("SIGTERM: stopping, closing ");
        Assert.Equal(0, await serve.ExitedAsync());
        return int.Parse(line.Split(' ')[3], CultureInfo.InvariantCulture);
    }

    private static void EchoOnce(BerthClient[] clients)
    {
        var body = new byte[8];
        for (var i = 0; i < clients.Length; i++)
        {
            BinaryPrimitives.WriteInt64LittleEndian(body, i);
            Assert.True(clients[i].Connection!.TrySend(body));
        }
    }

    private static async Task Until(Func<bool> condition)
    {
        var giveUp = DateTime.UtcNow + Patience;
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < giveUp, "The condition never became true.");
            await Task.Delay(20);
        }
    }

    private sealed class CountingHandler : ConnectionHandler
    {
        private int _echoes;
        private int _disconnects;

        public int Echoes => Volatile.Read(ref _echoes);

        public int Disconnects => Volatile.Read(ref _disconnects);

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Assert.Equal(8, body.Length);
            Interlocked.Increment(ref _echoes);
        }

        public override void OnDisconnected(Connection connection, DisconnectInfo info) => Interlocked.Increment(ref _disconnects);
    }
}
