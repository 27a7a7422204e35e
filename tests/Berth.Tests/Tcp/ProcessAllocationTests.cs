using System.Buffers;
using System.Net.Security;
using Berth.Buffers;
using Berth.Connections;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

/// <summary>
/// Zero allocation per message for the whole process: a Berth server and 100 Berth client connections in this
/// process echo pipelined frames back and forth, and <see cref="GC.GetTotalAllocatedBytes(bool)"/> counts every
/// allocation of both sides and of the runtime. The bytes allocated must not grow with the number of round trips
/// (<see cref="AllocationGrowth"/>). Runs in the allocation collection, alone.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class ProcessAllocationTests(ITestOutputHelper output)
{
    private const int Connections = 100;
    private const int Pipeline = 16;
    private const int BodyLength = 64;
    private const int WarmUpMessages = 100_000;
    private const int MeasuredMessages = 20_000;

    [Theory]
    [InlineData(false, false, HandlerScheduling.Inline)]
    [InlineData(true, false, HandlerScheduling.Inline)]
    [InlineData(false, true, HandlerScheduling.Inline)]
    [InlineData(false, false, HandlerScheduling.ThreadPool)]
    [InlineData(true, false, HandlerScheduling.ThreadPool)]
    public async Task HundredConnectionsEchoWithoutAllocatingPerMessage(bool sendAsync, bool tls, HandlerScheduling scheduling)
    {
        using var certificate = tls ? TlsTests.SelfSignedCertificate() : null;
        var serverOptions = new BerthServerOptions
        {
            HandlerScheduling = scheduling,
            Tls = tls ? new SslServerAuthenticationOptions { ServerCertificate = certificate } : null,
        };
        var serverSide = new Echo(sendAsync);
        await using var server = EchoTests.Start(serverOptions, serverSide);
        var clientSide = new Echo(sendAsync);
        var clients = new List<BerthClient>();
        try
        {
            for (var i = 0; i < Connections; i++)
            {
                var client = new BerthClient(
                    new BerthClientOptions
                    {
                        Port = server.EndPoint.Port,
                        HandlerScheduling = scheduling,
                        Tls = tls
                            ? new SslClientAuthenticationOptions
                            {
                                TargetHost = "localhost",
                                RemoteCertificateValidationCallback = (_, cert, _, _) => cert?.GetCertHashString() == certificate!.GetCertHashString(),
                            }
                            : null,
                    },
                    clientSide);
                clients.Add(client);
                var connection = await client.ConnectAsync().Within();
                for (var frame = 0; frame < Pipeline; frame++)
                {
                    Assert.True(connection.TrySend(EchoTests.RandomBody(BodyLength, frame)));
                }
            }

            // The measuring thread only sleeps and reads counters, so it allocates nothing itself.
            var what = $"{Connections} connections, {(sendAsync ? "SendAsync" : "TrySend")}, {(tls ? "TLS" : "plain")}, {scheduling}";
            var growth = await Task.Factory.StartNew(
                () =>
                {
                    WaitForEchoes(clientSide, WarmUpMessages);
                    return AllocationGrowth.Measure(count => WaitForEchoes(clientSide, count), MeasuredMessages, output, what);
                },
                CancellationToken.None,
                TaskCreationOptions.LongRunning,
                TaskScheduler.Default);

            Assert.Equal(0, serverSide.Failures);
            Assert.Equal(0, clientSide.Failures);
            // Over TLS the runtime's SslStream allocates now and then (about 0.2 B per message in some runs, nothing in
            // others), which no Berth change removes; there the test holds the growth under 1 B per extra message.
            var allowance = tls ? Math.Max(AllocationGrowth.Allowance, 9L * MeasuredMessages) : AllocationGrowth.Allowance;
            Assert.True(growth < allowance, $"{growth} more bytes allocated over {10 * MeasuredMessages} round trips than over {MeasuredMessages}");
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
            Assert.True(polls < 60_000, $"only {echo.Echoes} echoes arrived");
            Thread.Sleep(5);
        }
    }

    /// <summary>Sends every frame back with <see cref="Connection.TrySend(in ReadOnlySequence{byte})"/> or SendAsync until stopped.</summary>
    private sealed class Echo(bool sendAsync) : ConnectionHandler
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
            if (_stopped)
            {
                return;
            }

            if (!sendAsync)
            {
                if (!connection.TrySend(body))
                {
                    Interlocked.Increment(ref _failures);
                }

                return;
            }

            var sent = body.IsSingleSegment ? connection.SendAsync(body.First) : connection.SendAsync(body, WriteBody);
            if (!sent.IsCompletedSuccessfully)
            {
                _ = CountFailureAsync(sent);
            }
        }

        private static void WriteBody(ref PacketWriter writer, ReadOnlySequence<byte> body)
        {
            foreach (var segment in body)
            {
                writer.WriteBytes(segment.Span);
            }
        }

        private async Task CountFailureAsync(ValueTask sent)
        {
            try
            {
                await sent.ConfigureAwait(false);
            }
            catch (Exception e) when (e is SendQueueFullException or ConnectionClosedException)
            {
                Interlocked.Increment(ref _failures);
            }
        }
    }
}
