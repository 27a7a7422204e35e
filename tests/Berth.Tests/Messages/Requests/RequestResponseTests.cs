using System.Buffers;
using System.Buffers.Binary;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages.Requests;
using Berth.Tests.Tcp;

namespace Berth.Tests.Messages.Requests;

/// <summary>Request/response between a real server and client over loopback: replies, failures and bounds.</summary>
public sealed class RequestResponseTests
{
    private static readonly TimeSpan NoTimeout = Timeout.InfiniteTimeSpan;

    [Fact]
    public async Task A_request_gets_the_reply_its_handler_returns()
    {
        var router = new PacketRouter().OnRequest(static (Connection _, in Ping ping) => new Pong { Value = ping.Value + 1 });
        await using var peers = await RequestPeers.StartAsync(router);

        for (var i = 0; i < 3; i++)
        {
            var reply = await peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = i });
            Assert.Equal(i + 1, reply.Value);
        }
    }

    [Fact]
    public async Task Replies_that_arrive_out_of_order_complete_their_own_requests()
    {
        var held = new HeldReplies();
        await using var peers = await RequestPeers.StartAsync(new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle));

        var requests = Enumerable.Range(1, 4).Select(i => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = i }).AsTask()).ToArray();
        await held.WaitForStarted(4);
        foreach (var value in new[] { 3, 1, 4, 2 })
        {
            held.Release(value);
            Assert.Equal(value * 10, (await requests[value - 1].Within()).Value);
        }
    }

    /// <remarks>Inline puts the client on an event loop, which checks the deadlines; ThreadPool leaves it without one, for the process-wide timer.</remarks>
    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task A_request_without_a_reply_times_out_and_the_late_reply_is_discarded_and_counted(HandlerScheduling scheduling)
    {
        var held = new HeldReplies();
        using var meters = new LateReplyCounter();
        await using var peers = await RequestPeers.StartAsync(
            new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle),
            clientOptions: new BerthClientOptions { MeterFactory = meters, HandlerScheduling = scheduling });

        await Assert.ThrowsAsync<TimeoutException>(() => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }, TimeSpan.FromMilliseconds(50), default).AsTask().Within());

        held.Release(1);
        await Waits.Until(() => meters.Late == 1);
        var next = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 2 }).AsTask();
        await held.WaitForStarted(2);
        held.Release(2);
        Assert.Equal(20, (await next.Within()).Value);
        Assert.True(peers.Connection.IsConnected);
    }

    [Fact]
    public async Task On_an_event_loop_a_request_times_out_on_that_loops_thread_as_a_reply_would_come()
    {
        var held = new HeldReplies();
        await using var peers = await RequestPeers.StartAsync(new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle));
        if (!OperatingSystem.IsLinux())
        {
            // No event loop on this platform: the process-wide timer checks the deadlines, as the theories above cover.
            return;
        }

        var loop = peers.Connection.Lifetime.Loop;
        Assert.NotNull(loop);
        Assert.True(await TimesOutOn(loop, peers.Connection).Within());
    }

    private static async Task<bool> TimesOutOn(Connections.Transport.Epoll.EpollLoop loop, Connection connection)
    {
        try
        {
            await connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }, TimeSpan.FromMilliseconds(50), default).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            return loop.IsCurrentThread;
        }

        return false;
    }

    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task The_default_timeout_comes_from_the_options(HandlerScheduling scheduling)
    {
        var held = new HeldReplies();
        var options = new BerthClientOptions { HandlerScheduling = scheduling, Requests = { Timeout = TimeSpan.FromMilliseconds(50) } };
        await using var peers = await RequestPeers.StartAsync(new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle), clientOptions: options);

        await Assert.ThrowsAsync<TimeoutException>(() => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }).AsTask().Within());
    }

    [Fact]
    public async Task Cancellation_fails_only_the_local_request_and_the_reply_that_follows_is_counted_late()
    {
        var held = new HeldReplies();
        using var meters = new LateReplyCounter();
        await using var peers = await RequestPeers.StartAsync(
            new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle),
            clientOptions: new BerthClientOptions { MeterFactory = meters });
        using var cancel = new CancellationTokenSource();

        var cancelled = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }, NoTimeout, cancel.Token).AsTask();
        var kept = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 2 }, NoTimeout, default).AsTask();
        await held.WaitForStarted(2);
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled.Within());
        held.Release(1);
        held.Release(2);
        Assert.Equal(20, (await kept.Within()).Value);
        await Waits.Until(() => meters.Late == 1);
    }

    [Fact]
    public async Task Every_pending_request_fails_with_ConnectionClosedException_when_the_connection_ends()
    {
        var held = new HeldReplies();
        var clientOptions = new BerthClientOptions();
        await using var peers = await RequestPeers.StartAsync(new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle), clientOptions: clientOptions);

        var pending = Enumerable.Range(1, 5).Select(i => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = i }, NoTimeout, default).AsTask()).ToArray();
        await held.WaitForStarted(5);
        await peers.Server.StopAsync().Within();

        foreach (var request in pending)
        {
            await Assert.ThrowsAsync<ConnectionClosedException>(() => request.Within());
        }

        await peers.Connection.Closed.Within();
        await Assert.ThrowsAsync<ConnectionClosedException>(() => peers.Connection.RequestAsync<Ping, Pong>(new Ping()).AsTask());
        Assert.Equal(0, clientOptions.BufferPool.Outstanding);
    }

    [Fact]
    public async Task The_outstanding_bound_refuses_one_more_request_until_a_reply_came()
    {
        var held = new HeldReplies();
        var options = new BerthClientOptions { Requests = { MaxOutstanding = 2 } };
        await using var peers = await RequestPeers.StartAsync(new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle), clientOptions: options);

        var first = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }).AsTask();
        var second = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 2 }).AsTask();
        await Assert.ThrowsAsync<RequestLimitReachedException>(() => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 3 }).AsTask());

        await held.WaitForStarted(2);
        held.Release(1);
        Assert.Equal(10, (await first.Within()).Value);
        var third = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 3 }).AsTask();
        await held.WaitForStarted(3);
        held.Release(2);
        held.Release(3);
        Assert.Equal(20, (await second.Within()).Value);
        Assert.Equal(30, (await third.Within()).Value);
        Assert.Equal(3, held.Started);
    }

    [Fact]
    public async Task An_error_reply_fails_the_request_with_its_code_and_message_and_keeps_the_connection()
    {
        var router = new PacketRouter().OnRequest(static (Connection _, in Ping ping) =>
            ping.Value < 0 ? throw new RequestRejectedException(7, "negative") : new Pong { Value = ping.Value });
        await using var peers = await RequestPeers.StartAsync(router);

        var error = await Assert.ThrowsAsync<RequestRejectedException>(() => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = -1 }).AsTask());
        Assert.Equal((7, "negative"), (error.Code, error.Message));
        Assert.Equal(5, (await peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 5 })).Value);
    }

    [Fact]
    public async Task An_async_handler_rejecting_later_sends_an_error_reply_too()
    {
        var held = new HeldReplies();
        await using var peers = await RequestPeers.StartAsync(new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle));

        var request = peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }).AsTask();
        await held.WaitForStarted(1);
        held.Reject(1, new RequestRejectedException(9, "later"));

        var error = await Assert.ThrowsAsync<RequestRejectedException>(() => request.Within());
        Assert.Equal((9, "later"), (error.Code, error.Message));
        Assert.True(peers.Connection.IsConnected);
    }

    [Fact]
    public async Task The_async_handler_bound_pauses_that_connections_receive_until_one_finishes()
    {
        var held = new HeldReplies();
        var options = new BerthServerOptions { Requests = { MaxInFlightHandlers = 2 } };
        var router = new ConnectionRecordingRouter();
        router.OnRequestAsync<Ping, Pong>(held.Handle);
        await using var peers = await RequestPeers.StartAsync(router, options);

        var requests = Enumerable.Range(1, 3).Select(i => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = i }, NoTimeout, default).AsTask()).ToArray();
        await held.WaitForStarted(2);
        var serverSide = await router.Connected.Task.Within();

        // The third request is in the ring or the socket: the receive loop paused before delivering it.
        await Waits.Until(() => serverSide.Lifetime.Activity.PausedSinceTicks != 0);
        Assert.Equal(2, held.Started);

        held.Release(2);
        await held.WaitForStarted(3);
        Assert.Equal(20, (await requests[1].Within()).Value);
        held.Release(1);
        held.Release(3);
        Assert.Equal(10, (await requests[0].Within()).Value);
        Assert.Equal(30, (await requests[2].Within()).Value);
    }

    [Fact]
    public async Task A_slow_async_handler_does_not_stall_the_other_connections_of_its_event_loop()
    {
        var held = new HeldReplies();
        var router = new PacketRouter().OnRequestAsync(static (Connection _, Ping ping) => ValueTask.FromResult(new Pong { Value = ping.Value }));
        var slowRouter = new PacketRouter().OnRequestAsync<Ping, Pong>(held.Handle);
        var dispatching = new DispatchingRouter(slowRouter, router);
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.Inline, Requests = { MaxInFlightHandlers = 1 } }, dispatching);

        // The first connection is the slow one; with more connections than event loops, others share its loop.
        var clients = new List<BerthClient>();
        try
        {
            var connections = new List<Connection>();
            for (var i = 0; i < 2 * Environment.ProcessorCount + 1; i++)
            {
                var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, new PacketRouter());
                clients.Add(client);
                connections.Add(await client.ConnectAsync());
                if (i == 0)
                {
                    // Connections land on different loops, whose OnConnected calls may run in any order.
                    await dispatching.FirstConnected.Task.Within();
                }
            }

            var stalled = connections[0].RequestAsync<Ping, Pong>(new Ping { Value = 1 }, NoTimeout, default).AsTask();
            var queuedBehind = connections[0].RequestAsync<Ping, Pong>(new Ping { Value = 2 }, NoTimeout, default).AsTask();
            await held.WaitForStarted(1);

            for (var round = 0; round < 20; round++)
            {
                foreach (var connection in connections.Skip(1))
                {
                    Assert.Equal(round, (await connection.RequestAsync<Ping, Pong>(new Ping { Value = round }).AsTask().Within()).Value);
                }
            }

            Assert.False(stalled.IsCompleted || queuedBehind.IsCompleted);
            Assert.Equal(1, held.Started);
            held.Release(1);
            await held.WaitForStarted(2);
            held.Release(2);
            Assert.Equal(10, (await stalled.Within()).Value);
            Assert.Equal(20, (await queuedBehind.Within()).Value);
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task A_reply_to_a_request_never_sent_closes_only_that_connection()
    {
        var router = new PacketRouter().OnRequest(static (Connection _, in Ping ping) => new Pong { Value = ping.Value });
        await using var peers = await RequestPeers.StartAsync(router);
        using var offender = new RawClient(peers.Server.EndPoint);

        byte[] reply = [.. BitConverter.GetBytes((int)EnvelopeKind.Reply), .. BitConverter.GetBytes(99L), .. BitConverter.GetBytes(Pong.MessageId), .. new byte[8]];
        offender.SendFrame(reply);
        Assert.Equal(3, (await peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 3 })).Value);

        Assert.True(offender.WaitForClose());
        Assert.Equal(4, (await peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 4 })).Value);
    }

    [Fact]
    public async Task A_reply_of_the_wrong_type_fails_its_request_and_closes_the_connection_as_malformed()
    {
        // The server answers every request with a reply envelope naming Ping's id where a Pong is awaited.
        var router = new PacketRouter().Map((int)EnvelopeKind.Request, static (Connection connection, in ReadOnlySequence<byte> afterKind) =>
        {
            var correlation = BinaryPrimitives.ReadInt64LittleEndian(afterKind.Slice(0, 8).ToArray());
            connection.TrySend([.. BitConverter.GetBytes((int)EnvelopeKind.Reply), .. BitConverter.GetBytes(correlation), .. BitConverter.GetBytes(Ping.MessageId), .. new byte[8]]);
        });
        await using var peers = await RequestPeers.StartAsync(router);

        var error = await Assert.ThrowsAsync<Berth.Messages.MessageFormatException>(() => peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 1 }).AsTask().Within());
        Assert.Equal("Envelope.Tag", error.Field);
        var info = await peers.Connection.Closed.Within();
        Assert.Equal(DisconnectReason.MalformedMessage, info.Reason);
    }

    /// <summary>Routes the first connection the server sees to one router and every later one to another.</summary>
    private sealed class DispatchingRouter(ConnectionHandler first, ConnectionHandler rest) : ConnectionHandler
    {
        private long _firstId;

        public TaskCompletionSource FirstConnected { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnConnected(Connection connection)
        {
            if (Interlocked.CompareExchange(ref _firstId, connection.Id, 0) == 0)
            {
                FirstConnected.TrySetResult();
            }
        }

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) =>
            (connection.Id == Interlocked.Read(ref _firstId) ? first : rest).OnFrame(connection, body);
    }

    private sealed class ConnectionRecordingRouter : PacketRouter
    {
        public TaskCompletionSource<Connection> Connected { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnConnected(Connection connection) => Connected.TrySetResult(connection);
    }
}
