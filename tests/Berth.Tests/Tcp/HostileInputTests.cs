using System.Buffers;
using System.Buffers.Binary;
using Berth.Framing;
using Berth.Tcp;

namespace Berth.Tests.Tcp;

public sealed class HostileInputTests
{
    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task AnOversizedLengthClosesOnlyThatConnection(HandlerScheduling scheduling)
    {
        var handler = new RecordingHandler();
        var options = new TcpServerOptions { Format = LengthFieldFormat.Berth.WithMaxBodyLength(1000), HandlerScheduling = scheduling };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var good = new RawClient(server.EndPoint);
            using var bad = new RawClient(server.EndPoint);
            good.SendFrame([1]);
            Assert.Equal(new byte[] { 1 }, good.ReceiveFrame());

            var header = new byte[4];
            BinaryPrimitives.WriteUInt32LittleEndian(header, 1001);
            bad.Send(header);
            Assert.True(bad.WaitForClose());

            good.SendFrame([2]);
            Assert.Equal(new byte[] { 2 }, good.ReceiveFrame());
            await Waits.Until(() => !handler.Disconnects.IsEmpty);
            Assert.Equal(DisconnectReason.FrameTooLarge, Assert.Single(handler.Disconnects).Info.Reason);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task AnImpossibleLengthClosesWithMalformedFrame(HandlerScheduling scheduling)
    {
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(new TcpServerOptions { Format = LengthFieldFormat.FastPortSharp, HandlerScheduling = scheduling }, handler);
        using var bad = new RawClient(server.EndPoint);
        bad.Send([1, 0]);
        Assert.True(bad.WaitForClose());
        await Waits.Until(() => !handler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.MalformedFrame, Assert.Single(handler.Disconnects).Info.Reason);
    }

    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task AThrowingHandlerClosesOnlyItsConnection(HandlerScheduling scheduling)
    {
        var handler = new ThrowOnEmptyFrame();
        var options = new TcpServerOptions { HandlerScheduling = scheduling };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var good = new RawClient(server.EndPoint);
            using var bad = new RawClient(server.EndPoint);
            bad.SendFrame([]);
            Assert.True(bad.WaitForClose());
            good.SendFrame([9]);
            Assert.Equal(new byte[] { 9 }, good.ReceiveFrame());
            await Waits.Until(() => !handler.Disconnects.IsEmpty);
            var (_, info) = Assert.Single(handler.Disconnects);
            Assert.Equal(DisconnectReason.HandlerFailed, info.Reason);
            Assert.IsType<InvalidOperationException>(info.Error);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task AnIdleConnectionIsClosedAndAnActiveOneIsNot()
    {
        var handler = new RecordingHandler();
        // Long enough that the active client, which sends every tenth of it, is never starved past it while the
        // whole suite starts up on two cores; a test of behaviour, not of timing.
        var idleTimeout = TimeSpan.FromSeconds(3);
        var options = new TcpServerOptions { IdleTimeout = idleTimeout };
        await using var server = EchoTests.Start(options, handler);
        using var active = new RawClient(server.EndPoint);
        var activeConnection = await handler.FirstConnection.Within();
        using var idle = new RawClient(server.EndPoint);

        // The active client sends a frame every tenth of the idle timeout until the idle one is closed, then for two
        // more idle timeouts, so any wrong close of the active connection would have had time to happen.
        var round = 0;
        var roundsAfterIdleClosed = 0;
        var interval = idleTimeout / 10;
        while (roundsAfterIdleClosed < 20)
        {
            Assert.True(round++ < 1_000, "the idle connection was never closed");
            var body = EchoTests.RandomBody(1 + (round % 64), round);
            active.SendFrame(body);
            Assert.Equal(body, active.ReceiveFrame());
            if (!handler.Disconnects.IsEmpty)
            {
                roundsAfterIdleClosed++;
            }

            await Task.Delay(interval);
        }

        Assert.True(idle.WaitForClose());
        var (closed, info) = Assert.Single(handler.Disconnects);
        Assert.Equal(DisconnectReason.IdleTimeout, info.Reason);
        Assert.NotSame(activeConnection, closed);
        Assert.True(activeConnection.IsConnected);
        var last = EchoTests.RandomBody(4096, -1);
        active.SendFrame(last);
        Assert.Equal(last, active.ReceiveFrame());
    }

    [Fact]
    public async Task ConnectionsPastTheLimitAreClosedWithConnectionLimit()
    {
        var handler = new RecordingHandler();
        var options = new TcpServerOptions { MaxConnections = 2 };
        await using var server = EchoTests.Start(options, handler);
        using var first = new RawClient(server.EndPoint);
        using var second = new RawClient(server.EndPoint);
        first.SendFrame([1]);
        second.SendFrame([2]);
        first.ReceiveFrame();
        second.ReceiveFrame();

        using var third = new RawClient(server.EndPoint);
        Assert.True(third.WaitForClose());
        await Waits.Until(() => !handler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.ConnectionLimit, Assert.Single(handler.Disconnects).Info.Reason);
        first.SendFrame([3]);
        Assert.Equal(new byte[] { 3 }, first.ReceiveFrame());
    }

    [Fact]
    public async Task PausedAcceptingServesTheWaitingConnectionOnceASlotFrees()
    {
        var handler = new RecordingHandler();
        var options = new TcpServerOptions { MaxConnections = 1, ConnectionLimitPolicy = ConnectionLimitPolicy.PauseAccepting };
        await using var server = EchoTests.Start(options, handler);
        using var first = new RawClient(server.EndPoint);
        first.SendFrame([1]);
        first.ReceiveFrame();

        // The kernel completes the second connection and takes its frame; the server must leave it in the accept queue.
        using var waiting = new RawClient(server.EndPoint);
        waiting.SendFrame([2]);
        await Waits.Until(() => AcceptQueue.Length(server.EndPoint) == 1);

        // A round trip on the first connection gives the server every chance to have accepted and echoed the second.
        first.SendFrame([3]);
        Assert.Equal(new byte[] { 3 }, first.ReceiveFrame());
        Assert.Equal(1, AcceptQueue.Length(server.EndPoint));
        Assert.Single(handler.Connections);
        Assert.Equal(0, waiting.Socket.Available);

        first.Dispose();
        Assert.Equal(new byte[] { 2 }, waiting.ReceiveFrame());
        Assert.Equal(2, handler.Connections.Count);
        Assert.Equal(0, AcceptQueue.Length(server.EndPoint));
    }

    private sealed class ThrowOnEmptyFrame : RecordingHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (body.IsEmpty)
            {
                throw new InvalidOperationException("empty frames are not allowed here");
            }

            base.OnFrame(connection, body);
        }
    }
}
