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
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = scheduling }, router);
        using var client = new RawClient(server.EndPoint);
        var packet = RawClient.Frame(TypedTcpTests.Packet(new Move { PlayerId = 7, X = 1, Y = 2, Facing = Direction.North, Tick = 1 }));
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
                return AllocationGrowth.Measure(count => RoundTrips(client, burst, replies, count), Messages, output, $"typed echo, {scheduling}, state {withState}");
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * Messages} typed echoes than over {Messages}");
        Assert.Equal(2, BitConverter.ToInt64(replies, 4 + 4 + 13));
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
