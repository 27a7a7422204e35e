using System.Buffers;
using Berth.Messages;
using Berth.AotMessages;

// Round-trips one contract of each shape (a block among them) through the generated code and the top-level entries, and
// prints one line the smoke run checks: a contract that needed reflection would fail to publish or to run here.
var registry = MessageCatalog.Register(new MessageRegistry());
var move = RoundTrip(new Move { Player = 7, X = 1.5f, At = new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc), Id = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff") });
var chat = RoundTrip(new Chat { Text = "héllo", Tags = ["a", "b"], Numbers = [1, 2, 3], Last = move, Quote = new Utf8Field("quoté"u8.ToArray()) });
var shape = RoundTrip<Shape>(new Line(4, "edge"));
var position = RoundTrip(new Position { Id = 9, X = -2.5f, Tick = 1L << 40 });

var ok = move.Player == 7 && move.At.Kind == DateTimeKind.Utc && chat.Text == "héllo" && chat.Tags.Count == 2
    && chat.Numbers[2] == 3 && chat.Last?.Player == 7 && chat.Quote.Equals("quoté"u8) && shape is Line { Length: 4, Label: "edge" }
    && position is { Id: 9, X: -2.5f, Tick: 1L << 40 } && registry.Types.Count == 6;
Console.WriteLine(ok ? "messages round-tripped" : "messages differ");
return ok ? 0 : 1;

static T RoundTrip<T>(in T message)
    where T : IMessage<T>
{
    var output = new ArrayBufferWriter<byte>();
    MessageWriting.Write(output, message);
    return MessageReading.Read<T>(output.WrittenSpan);
}
