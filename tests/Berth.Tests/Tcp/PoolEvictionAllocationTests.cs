using System.Buffers;
using Berth.Buffers;
using Berth.Connections;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

/// <summary>
/// Zero allocation per message for the whole process while the buffer pool keeps releasing what it does not need:
/// 100 connections echo 64 KiB frames (larger than the receive ring's initial size, so rings grow and shrink with
/// every frame) with the server and the clients on one <see cref="ReleasingArrayPool"/> whose eviction runs every
/// 100 ms instead of every 5 s, so that over one run it meets the ups and downs of a steady load dozens of times: an
/// interval whose busiest moment rented fewer arrays than the one before is what made the pool release arrays that the
/// next interval allocated again. The bytes allocated must not grow with the number of round trips
/// (<see cref="AllocationGrowth"/>). Runs in the allocation collection, alone.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class PoolEvictionAllocationTests(ITestOutputHelper output)
{
    private const int Connections = 100;
    private const int BodyLength = 65_536;
    private const int Pipeline = 3;
    private const int MeasuredMessages = 5_000;

    [Fact]
    public async Task LargeFramesOverHundredConnectionsAllocateNothingPerMessageWhileThePoolReleases()
    {
        var pool = new BufferPool(new ReleasingArrayPool(2 * 1024 * 1024, 32 * 1024 * 1024, TimeSpan.FromMilliseconds(100)));
        var serverSide = new Echo();
        await using var server = EchoTests.Start(new BerthServerOptions { BufferPool = pool }, serverSide);
        var clientSide = new Echo();
        var clientOptions = new BerthClientOptions { Port = server.EndPoint.Port, BufferPool = pool };
        var clients = new List<BerthClient>();
        try
        {
            for (var i = 0; i < Connections; i++)
            {
                var client = new BerthClient(clientOptions, clientSide);
                clients.Add(client);
                var connection = await client.ConnectAsync().Within();
                for (var frame = 0; frame < Pipeline; frame++)
                {
                    Assert.True(connection.TrySend(EchoTests.RandomBody(BodyLength, frame)));
                }
            }

            // The measuring thread only sleeps and reads counters, so it allocates nothing itself.
            var growth = await Task.Factory.StartNew(
                () =>
                {
                    WaitForEchoes(clientSide, 5 * MeasuredMessages);
                    return AllocationGrowth.Measure(
                        count => WaitForEchoes(clientSide, count), MeasuredMessages, output, $"{Connections} connections, {BodyLength} B, eviction every 100 ms");
                },
                CancellationToken.None,
                TaskCreationOptions.LongRunning,
                TaskScheduler.Default);

            Assert.Equal(0, serverSide.Failures);
            Assert.Equal(0, clientSide.Failures);
            Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * MeasuredMessages} round trips than over {MeasuredMessages}");
        }
        finally
        {
            clientSide.Stop();
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    private static void WaitForEchoes(Echo echo, long count)
    {
        var until = echo.Echoes + count;
        for (var polls = 0; echo.Echoes < until; polls++)
        {
            // The message is built only on failure: a message formatted on every poll would count as allocation.
            if (polls >= 60_000)
            {
                Assert.Fail($"only {echo.Echoes} echoes arrived");
            }

            Thread.Sleep(5);
        }
    }

    /// <summary>Sends every frame back until stopped, and counts the frames and the sends the queue refused.</summary>
    private sealed class Echo : ConnectionHandler
    {
        private long _echoes;
        private int _failures;
        private volatile bool _stopped;

        public long Echoes => Interlocked.Read(ref _echoes);

        public int Failures => Volatile.Read(ref _failures);

        public void Stop() => _stopped = true;

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Interlocked.Increment(ref _echoes);
            if (!_stopped && !connection.TrySend(body))
            {
                Interlocked.Increment(ref _failures);
            }
        }
    }
}
