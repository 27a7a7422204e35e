using Berth.Connections;
using Berth.Connections.Packets;
using Berth.MemoryPack;
using Berth.Messages;
using MemoryPack;

namespace Berth.Codecs.Tests.MemoryPack;

/// <summary>MemoryPack types through Berth's router and typed sends over a real loopback connection.</summary>
public sealed class MemoryPackCodecTests
{
    private static readonly MemoryPackCodec<Position> PositionCodec = new(1);
    private static readonly MemoryPackCodec<Roster> RosterCodec = new(2);

    [Fact]
    public async Task A_struct_and_a_class_go_both_ways_between_client_and_server()
    {
        var serverRouter = new PacketRouter()
            .On(PositionCodec, static (Connection connection, in Position p) => connection.TrySend(PositionCodec, p with { Tick = p.Tick + 1 }))
            .On(RosterCodec, static (Connection connection, in Roster r) => connection.TrySend(RosterCodec, new Roster { Room = r.Room, Names = [.. r.Names, "server"] }));
        var positions = new TaskCompletionSource<Position>(TaskCreationOptions.RunContinuationsAsynchronously);
        var rosters = new TaskCompletionSource<Roster>(TaskCreationOptions.RunContinuationsAsynchronously);
        var clientRouter = new PacketRouter()
            .On(PositionCodec, (Connection connection, in Position p) => positions.TrySetResult(p))
            .On(RosterCodec, (Connection connection, in Roster r) => rosters.TrySetResult(r));
        var options = new BerthServerOptions();
        await using (var server = new BerthServer(options, serverRouter))
        {
            server.Start();
            await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, clientRouter);
            var connection = await client.ConnectAsync();

            await connection.SendAsync(PositionCodec, new Position(7, 1.5f, -2.5f, 3f, 41));
            await connection.SendAsync(RosterCodec, new Roster { Room = "lobby", Names = ["ann", "bö"] });

            Assert.Equal(new Position(7, 1.5f, -2.5f, 3f, 42), await positions.Task.WaitAsync(TimeSpan.FromSeconds(30)));
            var roster = await rosters.Task.WaitAsync(TimeSpan.FromSeconds(30));
            Assert.Equal("lobby", roster.Room);
            Assert.Equal(["ann", "bö", "server"], roster.Names);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task A_stateful_router_hands_codec_messages_the_connections_state()
    {
        var serverRouter = new MessageRouter<Counter>(static _ => new Counter())
            .On(PositionCodec, static (Connection connection, Counter counter, in Position p) => connection.TrySend(PositionCodec, p with { Tick = ++counter.Seen }));
        var replies = System.Threading.Channels.Channel.CreateUnbounded<long>();
        var clientRouter = new PacketRouter().On(PositionCodec, (Connection connection, in Position p) => replies.Writer.TryWrite(p.Tick));
        await using var server = new BerthServer(new BerthServerOptions(), serverRouter);
        server.Start();
        await using var first = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, clientRouter);
        var connection = await first.ConnectAsync();

        for (var i = 1; i <= 3; i++)
        {
            await connection.SendAsync(PositionCodec, new Position(1, 0, 0, 0, 0));
            Assert.Equal(i, await replies.Reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30)));
        }
    }

    [Fact]
    public void A_body_memory_pack_rejects_is_a_message_format_error()
    {
        // A string announcing far more UTF-16 characters than the body holds.
        byte[] body = [2, 0xFF, 0xFF, 0xFF, 0x7F, 0x41];

        var error = Assert.Throws<MessageFormatException>(() => RosterCodec.Read(new System.Buffers.ReadOnlySequence<byte>(body)));

        Assert.Equal(("Roster", MessageFault.Malformed), (error.Field, error.Fault));
    }

    [Fact]
    public void A_body_over_the_codec_bound_is_refused_before_deserializing()
    {
        var small = new MemoryPackCodec<Roster>(2, maxEncodedSize: 8);

        var error = Assert.Throws<MessageFormatException>(() => small.Read(new System.Buffers.ReadOnlySequence<byte>(new byte[9])));

        Assert.Equal(MessageFault.SizeOverBound, error.Fault);
    }
}

/// <summary>Per-connection state: how many positions the connection sent.</summary>
internal sealed class Counter
{
    public long Seen;
}

/// <summary>An unmanaged struct: MemoryPack copies it as one block.</summary>
[MemoryPackable]
public readonly partial record struct Position(int Player, float X, float Y, float Z, long Tick);

/// <summary>A class with a string and an array.</summary>
[MemoryPackable]
public sealed partial class Roster
{
    public string Room { get; set; } = "";

    public string[] Names { get; set; } = [];
}
