using Berth.Connections;
using Berth.Messages;
using Berth.Tests.Tcp;

namespace Berth.Tests.Messages;

/// <summary>Typed handlers with per-connection state, over real loopback connections.</summary>
public sealed class MessageRouterTests
{
    [Fact]
    public async Task Each_connection_gets_its_own_state_made_once_and_the_tag_stays_free()
    {
        var made = 0;
        var router = new MessageRouter<Player>(connection =>
        {
            Interlocked.Increment(ref made);
            return new Player(connection.Id);
        });
        router.On(static (Connection connection, Player player, in Move move) =>
        {
            player.Moves++;
            connection.TrySend(move with { Tick = player.Moves, PlayerId = (int)player.ConnectionId });
        });
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using var first = new RawClient(server.EndPoint);
        using var second = new RawClient(server.EndPoint);

        Assert.Equal(1, Echo(first, 1).Tick);
        Assert.Equal(2, Echo(first, 1).Tick);
        var fromSecond = Echo(second, 2);
        Assert.Equal(1, fromSecond.Tick);
        var fromFirst = Echo(first, 1);
        Assert.Equal(3, fromFirst.Tick);

        Assert.NotEqual(fromFirst.PlayerId, fromSecond.PlayerId);
        Assert.Equal(2, Volatile.Read(ref made));
    }

    [Fact]
    public async Task The_state_is_reachable_from_the_connect_and_disconnect_callbacks()
    {
        var router = new TrackingRouter();
        router.On(static (Connection connection, Player player, in Move move) => connection.TrySend(move with { Tick = player.Moves }));
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using (var client = new RawClient(server.EndPoint))
        {
            Assert.Equal(100, Echo(client, 1).Tick);
        }

        Assert.Equal(100, await router.MovesAtClose.Task.Within());
    }

    private static Move Echo(RawClient client, int playerId)
    {
        client.SendFrame(TypedTcpTests.Packet(new Move { PlayerId = playerId }));
        return MessageBytes.Decode<Move>(client.ReceiveFrame().AsSpan(4));
    }

    private sealed class Player(long connectionId)
    {
        public long ConnectionId { get; } = connectionId;

        public long Moves { get; set; }
    }

    private sealed class TrackingRouter() : MessageRouter<Player>(static connection => new Player(connection.Id))
    {
        public TaskCompletionSource<long> MovesAtClose { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnConnected(Connection connection) => StateOf(connection).Moves = 100;

        public override void OnDisconnected(Connection connection, DisconnectInfo info) => MovesAtClose.TrySetResult(StateOf(connection).Moves);
    }
}
