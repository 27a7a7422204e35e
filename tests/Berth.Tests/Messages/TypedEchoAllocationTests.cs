using Berth.Messages;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Tests.Tcp;
using Xunit.Abstractions;

namespace Berth.Tests.Messages;

/// <summary>
/// A typed echo (decode with the generated reader, handle, encode with the generated writer straight into the send
/// queue) allocates nothing per message: process-wide, 10N echoes allocate less than <see cref="AllocationGrowth.Allowance"/>
/// more than N, as the raw echo test holds the raw echo.
/// </summary>
[Collection(nameof(Tcp.AllocationTests))]
public sealed class TypedEchoAllocationTests(ITestOutputHelper output)
{
    private const int Pipeline = 16;
    private const int Messages = 10_000;

    [Theory]
    [InlineData(HandlerScheduling.Inline, false)]
    [InlineData(HandlerScheduling.ThreadPool, false)]
    [InlineData(HandlerScheduling.Inline, true)]
    [InlineData(HandlerScheduling.ThreadPool, true)]
    public async Task A_typed_struct_echo_allocates_nothing_per_message(HandlerScheduling scheduling, bool withState)
    {
        PacketRouter router = withState
            ? new MessageRouter<MoveCount>(static _ => new MoveCount()).On(static (Connection connection, MoveCount state, in Move move) =>
            {
                state.Moves++;
                connection.TrySend(move with { Tick = move.Tick + 1 });
            })
            : new PacketRouter().On(static (Connection connection, in Move move) => connection.TrySend(move with { Tick = move.Tick + 1 }));
        var replies = await Echo(router, scheduling, TypedTcpTests.Packet(new Move { PlayerId = 7, X = 1, Y = 2, Facing = Direction.North, Tick = 1 }), $"typed echo, {scheduling}, state {withState}");

        Assert.Equal(2, BitConverter.ToInt64(replies, 4 + 4 + 13));
    }

    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task A_utf8_view_echo_allocates_nothing_per_message(HandlerScheduling scheduling)
    {
        var router = new PacketRouter().On(static (Connection connection, in SayView say) =>
        {
            if (say.Text.Equals("héllo"u8))
            {
                connection.TrySend(say with { Room = say.Room + 1 });
            }
        });

        var replies = await Echo(router, scheduling, [.. BitConverter.GetBytes(SayView.MessageId), .. MessageBytes.Encode(new SayText(1, "héllo"))], $"utf8 view echo, {scheduling}");

        Assert.Equal(new SayText(2, "héllo"), MessageBytes.Decode<SayText>(replies.AsSpan(4 + 4, replies.Length / Pipeline - 8)));
    }

    [Theory]
    [InlineData(64)]
    [InlineData(1024)]
    public async Task The_echo_of_berth_serve_typed_allocates_nothing_per_message(int size)
    {
        var body = Cli.TypedServeTests.Body(size, sequence: 5);

        var replies = await Echo(Berth.Cli.Tcp.TypedEchoRouter.Create(), HandlerScheduling.Inline, body, $"berth serve --typed, {size} B");

        Assert.Equal(body, replies.AsSpan(4, size).ToArray());
    }

    /// <summary>Echoes <paramref name="packet"/> through <paramref name="router"/> in pipelined bursts and asserts the process-wide growth; returns the last burst's replies.</summary>
    private async Task<byte[]> Echo(PacketRouter router, HandlerScheduling scheduling, byte[] packetBody, string label)
    {
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = scheduling }, router);
        using var client = new RawClient(server.EndPoint);
        var packet = RawClient.Frame(packetBody);
        var burst = new byte[Pipeline * packet.Length];
        for (var i = 0; i < Pipeline; i++)
        {
            packet.CopyTo(burst, i * packet.Length);
        }

        var replies = new byte[burst.Length];
        var growth = await Task.Factory.StartNew(
            () =>
            {
                RoundTrips(client, burst, replies, 20_000);
                return AllocationGrowth.Measure(count => RoundTrips(client, burst, replies, count), Messages, output, label);
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * Messages} echoes than over {Messages} ({label})");
        return replies;
    }

    private static void RoundTrips(RawClient client, byte[] burst, byte[] replies, int messages)
    {
        for (var sent = 0; sent < messages; sent += Pipeline)
        {
            client.Send(burst);
            client.ReceiveExactly(replies);
        }
    }

    private sealed class MoveCount
    {
        public long Moves;
    }
}
