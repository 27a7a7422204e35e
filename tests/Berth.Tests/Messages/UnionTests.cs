using System.Buffers.Binary;
using Berth.Messages;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Tests.Tcp;

namespace Berth.Tests.Messages;

/// <summary>A union carries any of its members as the member's id and body: as the outermost message, as a field, under one handler.</summary>
public class UnionTests
{
    [Fact]
    public void A_union_is_the_member_id_then_the_member_body()
    {
        var body = MessageBytes.Encode<Shape>(new Square { Side = 2, Label = "sq" });

        Assert.Equal(Square.MessageId, BinaryPrimitives.ReadInt32LittleEndian(body));
        Assert.Equal(new Square { Side = 2, Label = "sq" }, MessageBytes.Decode<Shape>(body));
        Assert.Equal(new Circle { Radius = 3 }, MessageBytes.Decode<Shape>(MessageBytes.Encode<Shape>(new Circle { Radius = 3 })));
    }

    [Fact]
    public void Unions_round_trip_as_fields_lists_and_optionals()
    {
        var drawing = new Drawing { Main = new Square { Side = 1, Label = "main" }, Layers = [new Circle { Radius = 1 }, new Square { Side = 5 }] };

        var read = MessageBytes.Decode<Drawing>(MessageBytes.Encode(drawing));

        Assert.Equal(drawing.Main, read.Main);
        Assert.Equal(drawing.Layers, read.Layers);
        Assert.Null(read.Extra);
    }

    [Fact]
    public void A_member_id_the_union_does_not_have_is_malformed()
    {
        var body = MessageBytes.Encode<Shape>(new Circle { Radius = 1 });
        BinaryPrimitives.WriteInt32LittleEndian(body, Move.MessageId);

        var error = MessageBytes.Reject<Shape>(body);

        Assert.Equal((MessageFault.Malformed, "Shape", 0L), (error.Fault, error.Field, error.Offset));
    }

    [Fact]
    public void The_registry_holds_the_union_beside_its_members()
    {
        var registry = MessageCatalog.Register(new MessageRegistry());

        Assert.True(registry.TryGet(Shape.MessageId, out var union));
        Assert.Equal(typeof(Shape), union.Type);
    }

    [Fact]
    public async Task One_typed_handler_takes_every_member_of_a_union()
    {
        var router = new PacketRouter().On(static (Connection connection, in Shape shape) =>
            connection.TrySend(new Move { PlayerId = shape is Circle ? 1 : 2 }));
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using var client = new RawClient(server.EndPoint);

        client.SendFrame(TypedTcpTests.Packet<Shape>(new Square { Side = 1 }));
        Assert.Equal(2, MessageBytes.Decode<Move>(client.ReceiveFrame().AsSpan(4)).PlayerId);
        client.SendFrame(TypedTcpTests.Packet<Shape>(new Circle { Radius = 1 }));
        Assert.Equal(1, MessageBytes.Decode<Move>(client.ReceiveFrame().AsSpan(4)).PlayerId);
    }
}
