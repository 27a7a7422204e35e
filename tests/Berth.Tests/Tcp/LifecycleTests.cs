using System.Buffers;
using System.Net;
using Berth.Connections;

namespace Berth.Tests.Tcp;

public sealed class LifecycleTests
{
    [Fact]
    public async Task GracefulShutdownDeliversQueuedFramesBeforeClosing()
    {
        const int frames = 200;
        var handler = new RecordingHandler { Echo = false };
        var options = new BerthServerOptions();
        var server = EchoTests.Start(options, handler);
        using var client = new RawClient(server.EndPoint);
        var connection = await handler.FirstConnection.Within();
        for (var i = 0; i < frames; i++)
        {
            Assert.True(connection.TrySend(BitConverter.GetBytes(i)));
        }

        var stopping = server.StopAsync();
        for (var i = 0; i < frames; i++)
        {
            Assert.Equal(i, BitConverter.ToInt32(client.ReceiveFrame()));
        }

        Assert.True(client.WaitForClose());
        client.Socket.Close();
        await stopping.Within();

        var (_, info) = Assert.Single(handler.Disconnects);
        Assert.Equal(DisconnectReason.ServerStopping, info.Reason);
        Assert.Equal(0, info.UnsentFrames);
        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task ClientReconnectsAfterTheServerRestarts()
    {
        var first = EchoTests.Start(new BerthServerOptions());
        var port = first.EndPoint.Port;
        var handler = new RecordingHandler { Echo = false };
        var clientOptions = new BerthClientOptions
        {
            Port = port,
            Reconnect = true,
            ReconnectInitialDelay = TimeSpan.FromMilliseconds(20),
            ReconnectMaxDelay = TimeSpan.FromMilliseconds(200),
        };
        await using var client = new BerthClient(clientOptions, handler);
        await client.ConnectAsync();

        // A connection still in the listen backlog is reset when the listener closes; wait until it was accepted.
        await Waits.Until(() => first.ConnectionCount == 1);
        await first.StopAsync().Within();
        await Waits.Until(() => !handler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.ClosedByPeer, handler.Disconnects.Single().Info.Reason);

        await using var second = EchoTests.Start(new BerthServerOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, port) });
        await Waits.Until(() => handler.Connections.Count == 2 && client.Connection is not null);
        Assert.True(client.Connection!.TrySend([42]));
        await Waits.Until(() => second.ConnectionCount == 1);
    }

    [Fact]
    public async Task ConnectingToAClosedPortFailsWithASocketError()
    {
        var server = EchoTests.Start(new BerthServerOptions());
        var port = server.EndPoint.Port;
        await server.StopAsync();
        await using var client = new BerthClient(new BerthClientOptions { Port = port }, new RecordingHandler());
        await Assert.ThrowsAsync<System.Net.Sockets.SocketException>(() => client.ConnectAsync());
    }

    [Fact]
    public async Task ClosingFromTheApplicationFlushesAndReportsClosedByApplication()
    {
        var handler = new RecordingHandler { Echo = false };
        var options = new BerthServerOptions();
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var connection = await handler.FirstConnection.Within();
            Assert.True(connection.TrySend([5]));
            connection.Close();
            Assert.Equal(new byte[] { 5 }, client.ReceiveFrame());
            Assert.True(client.WaitForClose());
            client.Socket.Close();
            var info = await connection.Closed.Within();
            Assert.Equal(DisconnectReason.ClosedByApplication, info.Reason);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task TheClientConnectsByHostNameAndUsesTheSameConnectionType()
    {
        var serverOptions = new BerthServerOptions();
        await using var server = EchoTests.Start(serverOptions);
        var replies = new ReplyCollector();
        var clientOptions = new BerthClientOptions { Host = "localhost", Port = server.EndPoint.Port };
        await using (var client = new BerthClient(clientOptions, replies))
        {
            var connection = await client.ConnectAsync();
            for (var i = 0; i < 100; i++)
            {
                await connection.SendAsync(BitConverter.GetBytes(i));
            }

            await Waits.Until(() => replies.Count == 100);
            Assert.Equal(Enumerable.Range(0, 100), replies.Values);
        }

        Assert.Equal(0, clientOptions.BufferPool.Outstanding);
    }

    private sealed class ReplyCollector : ConnectionHandler
    {
        private readonly List<int> _values = [];

        public int Count
        {
            get
            {
                lock (_values)
                {
                    return _values.Count;
                }
            }
        }

        public List<int> Values
        {
            get
            {
                lock (_values)
                {
                    return [.. _values];
                }
            }
        }

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Span<byte> value = stackalloc byte[4];
            body.CopyTo(value);
            lock (_values)
            {
                _values.Add(BitConverter.ToInt32(value));
            }
        }
    }
}
