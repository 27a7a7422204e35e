using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;
using Berth.Messages;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Tests.Tcp;

namespace Berth.Tests.Messages;

/// <summary>Typed handlers and typed sends over real loopback connections, beside raw handlers in the same router.</summary>
public sealed class TypedTcpTests
{
    [Fact]
    public async Task A_typed_handler_and_a_raw_handler_share_one_router()
    {
        var router = new RecordingRouter();
        router.On(static (Connection connection, in Move move) => connection.TrySend(move with { Tick = move.Tick + 1 }));
        router.Map(99, static (Connection connection, in ReadOnlySequence<byte> payload) => connection.TrySend(payload));
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using var client = new RawClient(server.EndPoint);

        var move = new Move { PlayerId = 4, X = 1.5f, Y = 2.5f, Facing = Direction.East, Tick = 41 };
        client.SendFrame(Packet(move));
        var reply = client.ReceiveFrame();

        Assert.Equal(Move.MessageId, BinaryPrimitives.ReadInt32LittleEndian(reply));
        Assert.Equal(move with { Tick = 42 }, MessageBytes.Decode<Move>(reply.AsSpan(4)));

        client.SendFrame([99, 0, 0, 0, 1, 2, 3]);
        Assert.Equal(new byte[] { 1, 2, 3 }, client.ReceiveFrame());
    }

    [Fact]
    public async Task A_body_its_contract_rejects_closes_only_the_sender_naming_field_offset_and_fault()
    {
        var log = new CapturingLoggerFactory();
        var options = new BerthServerOptions { LoggerFactory = log };
        var router = new RecordingRouter();
        router.On(static (Connection connection, in Move move) => connection.TrySend(move));
        router.On(static (Connection connection, in Chat chat) => connection.TrySend(new Move { PlayerId = chat.Numbers.Length }));
        await using (var server = EchoTests.Start(options, router))
        {
            using var witness = new RawClient(server.EndPoint);
            using var offender = new RawClient(server.EndPoint);
            var move = new Move { PlayerId = 1, Tick = 2 };
            AssertEchoes(witness, move);

            // Chat's fields up to Numbers are empty; Numbers then announces a count far over the contract's bound of 64.
            var chat = MessageBytes.Encode(new Chat());
            byte[] hostile = [.. BitConverter.GetBytes(Chat.MessageId), .. chat.AsSpan(0, 4), 0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
            offender.SendFrame(hostile);
            AssertEchoes(witness, move);

            var info = await router.Disconnected.Task.Within();
            var error = Assert.IsType<MessageFormatException>(info.Error);
            Assert.Equal(DisconnectReason.MalformedMessage, info.Reason);
            Assert.Equal((MessageFault.CountOverBound, "Chat.Numbers", 4L), (error.Fault, error.Field, error.Offset));
            await Waits.Until(() => log.Lines.Any(line =>
                line.StartsWith("Warning: ", StringComparison.Ordinal) && line.EndsWith("closed: MalformedMessage, Chat.Numbers at offset 4: CountOverBound", StringComparison.Ordinal)));
            Assert.True(offender.WaitForClose());
            AssertEchoes(witness, move);
            await Waits.Until(() => server.ConnectionCount == 1);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task A_typed_send_from_the_client_reaches_a_typed_handler_on_the_server()
    {
        var received = new TaskCompletionSource<Chat>(TaskCreationOptions.RunContinuationsAsynchronously);
        var serverRouter = new PacketRouter();
        serverRouter.On((Connection connection, in Chat chat) => received.TrySetResult(chat));
        await using var server = EchoTests.Start(new BerthServerOptions(), serverRouter);
        await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, new PacketRouter());
        var connection = await client.ConnectAsync();

        var sent = RoundTripTests.FullChat(8);
        await connection.SendAsync(sent);

        RoundTripTests.AssertSame(sent, await received.Task.Within());
    }

    [Fact]
    public async Task A_big_endian_contract_goes_out_in_its_order_after_a_little_endian_id()
    {
        var router = new PacketRouter();
        router.On(static (Connection connection, in Scalars scalars) => connection.TrySend(scalars with { I32 = scalars.I32 + 1 }));
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using var client = new RawClient(server.EndPoint);
        var scalars = new Scalars { I16 = 0x0102, I32 = 0x01020304, Id = Guid.NewGuid() };

        client.SendFrame(Packet(scalars));
        var reply = client.ReceiveFrame();

        Assert.Equal(Scalars.MessageId, BinaryPrimitives.ReadInt32LittleEndian(reply));
        Assert.Equal(0x01020305, BinaryPrimitives.ReadInt32BigEndian(reply.AsSpan(4 + 9)));
        Assert.Equal(reply.AsSpan(4).ToArray(), MessageBytes.Encode(scalars with { I32 = 0x01020305 }));
    }

    [Fact]
    public async Task A_big_endian_typed_send_from_the_client_is_read_by_the_server()
    {
        var received = new TaskCompletionSource<Scalars>(TaskCreationOptions.RunContinuationsAsynchronously);
        var serverRouter = new PacketRouter();
        serverRouter.On((Connection connection, in Scalars scalars) => received.TrySetResult(scalars));
        await using var server = EchoTests.Start(new BerthServerOptions(), serverRouter);
        await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, new PacketRouter());
        var connection = await client.ConnectAsync();
        var sent = new Scalars { I64 = -5, F64 = 1.25, Money = 12.5m, Span = TimeSpan.FromSeconds(3), Rights = Rights.Admin };

        await connection.SendAsync(sent);

        Assert.Equal(sent, await received.Task.Within());
    }

    internal static byte[] Packet<T>(in T message)
        where T : IMessage<T> => [.. BitConverter.GetBytes(T.MessageId), .. MessageBytes.Encode(message)];

    private static void AssertEchoes(RawClient client, Move move)
    {
        client.SendFrame(Packet(move));
        Assert.Equal(move, MessageBytes.Decode<Move>(client.ReceiveFrame().AsSpan(4)));
    }

    private sealed class RecordingRouter : PacketRouter
    {
        public TaskCompletionSource<DisconnectInfo> Disconnected { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnDisconnected(Connection connection, DisconnectInfo info) => Disconnected.TrySetResult(info);
    }
}
