using System.Buffers.Binary;

namespace Berth.Zmq.Tests.Typed;

/// <summary>Typed frames on plain sockets over tcp loopback: single frame, routing frame first, and malformed input dropped and counted.</summary>
public sealed class TypedSocketTests : IDisposable
{
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void A_struct_message_round_trips_as_one_frame_of_its_id_and_body()
    {
        using var pull = _context.Create(ZmqSocketType.Pull);
        using var push = _context.Create(ZmqSocketType.Push);
        push.Connect(pull.BindLoopback());

        var sent = new Position { PlayerId = 7, X = 1.5f, Y = -2, Facing = 3, Tick = long.MaxValue };
        push.SendMessage(sent);
        var frame = pull.ReceiveBytes();
        Assert.Equal(11, BinaryPrimitives.ReadInt32LittleEndian(frame));
        Assert.Equal(4 + 4 + 4 + 4 + 1 + 8, frame.Length);

        push.SendMessage(sent);
        Assert.Equal(sent, pull.ReceiveMessage<Position>());
        Assert.Equal(0, pull.DroppedMessages);
    }

    [Fact]
    public void A_router_receives_the_routing_frame_then_the_message_and_answers_that_peer()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var dealer = _context.Create(ZmqSocketType.Dealer);
        dealer.RoutingId = "peer-1"u8.ToArray();
        dealer.Connect(router.BindLoopback());
        using var routingId = new ZmqMessage();

        dealer.SendMessage(new Note { Text = "hello" });
        Assert.Equal("hello", router.ReceiveMessage<Note>(routingId).Text);
        Assert.Equal("peer-1"u8.ToArray(), routingId.Data.ToArray());

        router.Send(routingId, more: true);
        router.SendMessage(new Note { Text = "back" });
        Assert.Equal("back", dealer.ReceiveMessage<Note>().Text);
    }

    [Fact]
    public void Malformed_messages_are_dropped_and_counted_and_the_next_good_one_is_read()
    {
        using var pull = _context.Create(ZmqSocketType.Pull);
        using var push = _context.Create(ZmqSocketType.Push);
        push.Connect(pull.BindLoopback());

        Span<byte> frame = stackalloc byte[16];
        BinaryPrimitives.WriteInt32LittleEndian(frame, 14);
        frame[4] = 200; // a string length past the end of the frame
        push.Send(frame[..5]);
        BinaryPrimitives.WriteInt32LittleEndian(frame, 99); // an id that is not Note's
        push.Send(frame[..4]);
        push.Send(frame[..2]); // shorter than an id
        push.SendMultipart(new byte[] { 14, 0, 0, 0, 0 }, new byte[] { 1 }); // two frames where one was awaited
        push.SendMessage(new Note { Text = "good" });

        Assert.Equal("good", pull.ReceiveMessage<Note>().Text);
        Assert.Equal(4, pull.DroppedMessages);
        Assert.False(pull.TryReceiveMessage<Note>(out _));
    }

    [Fact]
    public void A_message_over_its_contract_bound_is_refused_on_sending_and_nothing_is_sent()
    {
        using var pull = _context.Create(ZmqSocketType.Pull);
        using var push = _context.Create(ZmqSocketType.Push);
        push.Connect(pull.BindLoopback());

        Assert.Throws<ArgumentException>(() => push.SendMessage(new Note { Text = new string('x', 100) }));
        push.SendMessage(new Note { Text = "fits" });
        Assert.Equal("fits", pull.ReceiveMessage<Note>().Text);
        Assert.Equal(0, pull.DroppedMessages);
    }

    [Fact]
    public void MaxMessageSize_from_the_contract_stops_an_oversized_frame_before_it_is_read_while_a_witness_keeps_sending()
    {
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.MaxMessageSize = ZmqMessageFrames.MaxFrameSize<Note>();
        var endpoint = pull.BindLoopback();
        using var witness = _context.Create(ZmqSocketType.Push);
        witness.Connect(endpoint);
        witness.SendMessage(new Note { Text = "before" });
        Assert.Equal("before", pull.ReceiveMessage<Note>().Text);

        using var monitor = pull.Monitor(ZmqMonitorEvents.Disconnected);
        using var offender = _context.Create(ZmqSocketType.Push);
        offender.Connect(endpoint);

        // 1 MiB where the contract allows 80 bytes: libzmq breaks the offender's session on the length prefix, and
        // nothing else disconnects here, so the event is the offender's.
        offender.Send(new byte[1024 * 1024]);
        Assert.True(monitor.TryReceive(Endpoints.Patience, out var disconnected), "the offender was never disconnected");
        Assert.Equal(ZmqMonitorEvents.Disconnected, disconnected.Event);

        witness.SendMessage(new Note { Text = "after" });
        Assert.Equal("after", pull.ReceiveMessage<Note>().Text);
        Assert.Equal(0, pull.DroppedMessages);
    }
}
