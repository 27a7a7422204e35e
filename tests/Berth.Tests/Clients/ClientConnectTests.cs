using System.Buffers;
using System.Net;
using System.Net.Sockets;
using Berth.Connections;
using Berth.Tests.Tcp;
using BerthClient = Berth.Connections.BerthClient;

namespace Berth.Tests.Clients;

/// <summary>
/// The client's connect on each path: Berth's epoll loop (<see cref="HandlerScheduling.Inline"/> on Linux), where a
/// non-blocking connect ends on the loop's writable event, and the runtime's engine (<see cref="HandlerScheduling.ThreadPool"/>).
/// Both must report the same outcomes.
/// </summary>
public sealed class ClientConnectTests
{
    public static TheoryData<HandlerScheduling> Schedulings => new(Enum.GetValues<HandlerScheduling>());

    [Theory]
    [MemberData(nameof(Schedulings))]
    public async Task ARefusedConnectThrowsConnectionRefused(HandlerScheduling scheduling)
    {
        int port;
        using (var closed = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
        {
            closed.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            port = ((IPEndPoint)closed.LocalEndPoint!).Port;
        }

        var options = new BerthClientOptions { Port = port, HandlerScheduling = scheduling };
        await using var client = new BerthClient(options, new RecordingHandler());
        var error = await Assert.ThrowsAsync<SocketException>(() => client.ConnectAsync().WaitAsync(Waits.Patience));
        Assert.Equal(SocketError.ConnectionRefused, error.SocketErrorCode);
        Assert.Null(client.Connection);
        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Schedulings))]
    public async Task AConnectedClientKnowsBothEndPointsAndEchoes(HandlerScheduling scheduling)
    {
        await using var server = EchoTests.Start(new BerthServerOptions());
        var handler = new FrameCounter();
        var options = new BerthClientOptions { Port = server.EndPoint.Port, HandlerScheduling = scheduling };
        await using var client = new BerthClient(options, handler);
        var connection = await client.ConnectAsync().WaitAsync(Waits.Patience);

        Assert.Equal(server.EndPoint.Port, Assert.IsType<IPEndPoint>(connection.RemoteEndPoint).Port);
        Assert.NotEqual(0, Assert.IsType<IPEndPoint>(connection.LocalEndPoint).Port);
        Assert.True(connection.TrySend([1, 2, 3]));
        await handler.FirstFrame.WaitAsync(Waits.Patience);
    }

    /// <summary>"localhost" may name ::1 before 127.0.0.1: an address that refuses is passed over for the next one.</summary>
    [Theory]
    [MemberData(nameof(Schedulings))]
    public async Task AHostNameConnectsToTheAddressThatListens(HandlerScheduling scheduling)
    {
        await using var server = EchoTests.Start(new BerthServerOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) });
        var handler = new FrameCounter();
        var options = new BerthClientOptions { Host = "localhost", Port = server.EndPoint.Port, HandlerScheduling = scheduling };
        await using var client = new BerthClient(options, handler);
        var connection = await client.ConnectAsync().WaitAsync(Waits.Patience);

        Assert.True(connection.TrySend([4, 5, 6]));
        await handler.FirstFrame.WaitAsync(Waits.Patience);
    }

    private sealed class FrameCounter : ConnectionHandler
    {
        private readonly TaskCompletionSource _firstFrame = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task FirstFrame => _firstFrame.Task;

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => _firstFrame.TrySetResult();
    }
}
