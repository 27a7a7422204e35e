using System.Buffers;
using Berth.Framing;
using Berth.Tcp;

namespace Berth.Tests.Tcp;

public sealed class EchoTests
{
    public static TheoryData<int, HandlerScheduling> SizesUnderEachScheduling()
    {
        var data = new TheoryData<int, HandlerScheduling>();
        foreach (var scheduling in Enum.GetValues<HandlerScheduling>())
        {
            foreach (var size in (int[])[0, 1, 63, 4096, 16_385, 200_000, LengthFieldFormat.DefaultMaxBodyLength])
            {
                data.Add(size, scheduling);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SizesUnderEachScheduling))]
    public async Task EchoesBodiesOfEverySizeUpToTheMaximum(int size, HandlerScheduling scheduling)
    {
        var options = new TcpServerOptions { HandlerScheduling = scheduling };
        await using (var server = Start(options))
        {
            using var client = new RawClient(server.EndPoint);
            var body = RandomBody(size, seed: size);
            client.SendFrame(body);
            Assert.Equal(body, client.ReceiveFrame());
            client.SendFrame(body);
            Assert.Equal(body, client.ReceiveFrame());
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task EchoesRandomSizesInOrder(HandlerScheduling scheduling)
    {
        var options = new TcpServerOptions { HandlerScheduling = scheduling };
        await using (var server = Start(options))
        {
            using var client = new RawClient(server.EndPoint);
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
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task FramesArrivingOneByteAtATimeAreReassembled(HandlerScheduling scheduling)
    {
        await using var server = Start(new TcpServerOptions { HandlerScheduling = scheduling });
        using var client = new RawClient(server.EndPoint);
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
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task APipelinedBurstInOneWriteIsEchoedInOrder(HandlerScheduling scheduling)
    {
        await using var server = Start(new TcpServerOptions { ReceiveBufferSize = 1024, HandlerScheduling = scheduling });
        using var client = new RawClient(server.EndPoint);
        var bodies = Enumerable.Range(0, 2000).Select(i => RandomBody(i % 300, i)).ToArray();
        client.Send(bodies.SelectMany(b => RawClient.Frame(b)).ToArray());
        foreach (var body in bodies)
        {
            Assert.Equal(body, client.ReceiveFrame());
        }
    }

    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task AThousandConcurrentConnectionsAllEcho(HandlerScheduling scheduling)
    {
        const int count = 1000;
        var options = new TcpServerOptions { HandlerScheduling = scheduling };
        await using (var server = Start(options))
        {
            var clients = new List<RawClient>(count);
            try
            {
                for (var i = 0; i < count; i++)
                {
                    clients.Add(new RawClient(server.EndPoint));
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
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task OtherWireFormatsWork(HandlerScheduling scheduling)
    {
        var options = new TcpServerOptions { Format = LengthFieldFormat.FastPortSharp, HandlerScheduling = scheduling };
        await using var server = Start(options);
        var received = new TaskCompletionSource<byte[]>();
        var collector = new CollectingHandler(received);
        await using var client = new TcpClient(
            new TcpClientOptions { Port = server.EndPoint.Port, Format = LengthFieldFormat.FastPortSharp, HandlerScheduling = scheduling },
            collector);
        var connection = await client.ConnectAsync();
        Assert.True(connection.TrySend([1, 2, 3]));
        Assert.Equal(new byte[] { 1, 2, 3 }, await received.Task.Within());
    }

    internal static TcpServer Start(TcpServerOptions options, ConnectionHandler? handler = null)
    {
        var server = new TcpServer(options, handler ?? new EchoHandler());
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
