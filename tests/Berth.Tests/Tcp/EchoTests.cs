using System.Buffers;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Tests.Tcp;

public sealed class EchoTests
{
    public static TheoryData<int, TransportKind> SizesOverEachTransport() =>
        Transports.Each(0, 1, 63, 4096, 16_385, 200_000, LengthFieldFormat.DefaultMaxBodyLength);

    [Theory]
    [MemberData(nameof(SizesOverEachTransport))]
    public async Task EchoesBodiesOfEverySizeUpToTheMaximum(int size, TransportKind kind)
    {
        var options = new BerthServerOptions().On(kind);
        await using (var server = Start(options))
        {
            using var client = new RawClient(server.EndPoint, kind);
            var body = RandomBody(size, seed: size);
            client.SendFrame(body);
            Assert.Equal(body, client.ReceiveFrame());
            client.SendFrame(body);
            Assert.Equal(body, client.ReceiveFrame());
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task EchoesRandomSizesInOrder(TransportKind kind)
    {
        var options = new BerthServerOptions().On(kind);
        await using (var server = Start(options))
        {
            using var client = new RawClient(server.EndPoint, kind);
            var random = new Random(7);
            for (var i = 0; i < 200; i++)
            {
                var body = RandomBody(random.Next(0, 70_000), seed: i);
                client.SendFrame(body);
                Assert.Equal(body, client.ReceiveFrame());
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task FramesArrivingOneByteAtATimeAreReassembled(TransportKind kind)
    {
        await using var server = Start(new BerthServerOptions().On(kind));
        using var client = new RawClient(server.EndPoint, kind);
        var bodies = Enumerable.Range(0, 5).Select(i => RandomBody(i * 37, i)).ToArray();
        foreach (var b in bodies.SelectMany(b => RawClient.Frame(b)))
        {
            client.Send([b]);
        }

        foreach (var body in bodies)
        {
            Assert.Equal(body, client.ReceiveFrame());
        }
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task APipelinedBurstInOneWriteIsEchoedInOrder(TransportKind kind)
    {
        await using var server = Start(new BerthServerOptions { ReceiveBufferSize = 1024 }.On(kind));
        using var client = new RawClient(server.EndPoint, kind);
        var bodies = Enumerable.Range(0, 2000).Select(i => RandomBody(i % 300, i)).ToArray();
        client.Send(bodies.SelectMany(b => RawClient.Frame(b)).ToArray());
        foreach (var body in bodies)
        {
            Assert.Equal(body, client.ReceiveFrame());
        }
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task AThousandConcurrentConnectionsAllEcho(TransportKind kind)
    {
        const int count = 1000;
        var options = new BerthServerOptions().On(kind);
        await using (var server = Start(options))
        {
            var clients = new List<RawClient>(count);
            try
            {
                for (var i = 0; i < count; i++)
                {
                    clients.Add(new RawClient(server.EndPoint, kind));
                }

                for (var i = 0; i < count; i++)
                {
                    clients[i].SendFrame(BitConverter.GetBytes(i));
                }

                for (var i = 0; i < count; i++)
                {
                    Assert.Equal(i, BitConverter.ToInt32(clients[i].ReceiveFrame()));
                }

                await Waits.Until(() => server.ConnectionCount == count);
            }
            finally
            {
                clients.ForEach(c => c.Dispose());
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task OtherWireFormatsWork(TransportKind kind)
    {
        var options = new BerthServerOptions { Format = LengthFieldFormat.FastPortSharp }.On(kind);
        await using var server = Start(options);
        var received = new TaskCompletionSource<byte[]>();
        var collector = new CollectingHandler(received);
        await using var client = new BerthClient(
            new BerthClientOptions { Port = server.EndPoint.Port, Format = LengthFieldFormat.FastPortSharp }.On(kind),
            collector);
        var connection = await client.ConnectAsync();
        Assert.True(connection.TrySend([1, 2, 3]));
        Assert.Equal(new byte[] { 1, 2, 3 }, await received.Task.Within());
    }

    internal static BerthServer Start(BerthServerOptions options, ConnectionHandler? handler = null)
    {
        var server = new BerthServer(options, handler ?? new EchoHandler());
        server.Start();
        return server;
    }

    internal static byte[] RandomBody(int size, int seed)
    {
        var body = new byte[size];
        new Random(seed).NextBytes(body);
        return body;
    }

    private sealed class CollectingHandler(TaskCompletionSource<byte[]> received) : ConnectionHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) =>
            received.TrySetResult(body.ToArray());
    }
}
