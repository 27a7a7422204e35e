using Berth.Tests.Tcp;
using Berth.Zmq;

namespace Berth.Tests.Cli;

/// <summary>Runs <c>berth zmq echo</c> as its own process and talks to it through real libzmq sockets over loopback.</summary>
public sealed class ZmqEchoCommandTests
{
    private const int Limit = 1024;

    [Fact]
    public async Task MaxMsgSizeEchoesAFrameWithinItAndDisconnectsOnlyThePeerThatSendsOneOverIt()
    {
        await using var echo = new BerthProcess("zmq", "echo", "--type", "router", "--bind", "tcp://127.0.0.1:*", "--max-msg-size", $"{Limit}");
        var endpoint = (await echo.LineStartingWithAsync("listening on "))["listening on ".Length..];
        using var context = new ZmqContext();
        using var polite = Dealer(context);
        polite.Connect(endpoint);
        using var offender = Dealer(context);
        using var monitor = offender.Monitor(ZmqMonitorEvents.HandshakeSucceeded | ZmqMonitorEvents.Disconnected);
        offender.Connect(endpoint);
        Assert.Equal(ZmqMonitorEvents.HandshakeSucceeded, NextEvent(monitor));

        var within = Payload(Limit, 1);
        offender.Send(within);
        Assert.Equal(within, offender.ReceiveBytes());

        offender.Send(Payload(Limit + 1, 2));
        Assert.Equal(ZmqMonitorEvents.Disconnected, NextEvent(monitor));

        // The oversized frame was dropped with the connection: after reconnecting, the first echo the offender gets
        // is its next frame, and the other peer was served throughout.
        var afterwards = Payload(16, 3);
        offender.Send(afterwards);
        Assert.Equal(afterwards, offender.ReceiveBytes());
        polite.Send(within);
        Assert.Equal(within, polite.ReceiveBytes());

        await echo.SignalAsync("TERM");
        Assert.True(await echo.ExitedAsync() == 0, await echo.Error);
    }

    private static ZmqSocket Dealer(ZmqContext context)
    {
        var socket = context.CreateSocket(ZmqSocketType.Dealer);
        socket.ReceiveTimeout = Waits.Patience;
        socket.SendTimeout = Waits.Patience;
        socket.Linger = TimeSpan.Zero;
        return socket;
    }

    private static ZmqMonitorEvents NextEvent(ZmqMonitor monitor) =>
        monitor.TryReceive(Waits.Patience, out var monitorEvent) ? monitorEvent.Event : ZmqMonitorEvents.None;

    private static byte[] Payload(int size, byte fill)
    {
        var payload = new byte[size];
        payload.AsSpan().Fill(fill);
        return payload;
    }
}
