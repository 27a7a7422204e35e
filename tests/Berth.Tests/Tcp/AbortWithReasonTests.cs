using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>An application closes a connection with a reason of its own, and only with a reason it can have found.</summary>
public sealed class AbortWithReasonTests
{
    [Theory]
    [InlineData(DisconnectReason.ClosedByApplication)]
    [InlineData(DisconnectReason.MalformedFrame)]
    [InlineData(DisconnectReason.MalformedMessage)]
    [InlineData(DisconnectReason.UnknownMessage)]
    [InlineData(DisconnectReason.SlowConsumer)]
    [InlineData(DisconnectReason.IdleTimeout)]
    public async Task TheReasonGivenIsTheReasonReported(DisconnectReason reason)
    {
        var handler = new RecordingHandler();
        var options = new BerthServerOptions();
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var connection = await handler.FirstConnection.Within();
            connection.Abort(reason);
            Assert.True(client.WaitForClose());
            Assert.Equal(reason, (await connection.Closed.Within()).Reason);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [InlineData(DisconnectReason.ClosedByPeer)]
    [InlineData(DisconnectReason.FrameTooLarge)]
    [InlineData(DisconnectReason.HandlerFailed)]
    [InlineData(DisconnectReason.ConnectionLimit)]
    [InlineData(DisconnectReason.ServerStopping)]
    [InlineData(DisconnectReason.SocketError)]
    [InlineData(DisconnectReason.TlsFailed)]
    [InlineData(DisconnectReason.FrameTimeout)]
    public async Task AReasonOnlyTheConnectionRecordsIsRefusedAndLeavesItOpen(DisconnectReason reason)
    {
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(new BerthServerOptions(), handler);
        using var client = new RawClient(server.EndPoint);
        var connection = await handler.FirstConnection.Within();

        Assert.Throws<ArgumentOutOfRangeException>(() => connection.Abort(reason));

        Assert.True(connection.IsConnected);
        client.SendFrame([7]);
        Assert.Equal(new byte[] { 7 }, client.ReceiveFrame());
    }
}
