using Berth.Buffers;
using Berth.Messages;

namespace Berth.AotMessages;

[Message(1, ByteOrder = Endianness.Big)]
public partial struct Move
{
    [Field(0)] public int Player;
    [Field(1)] public float X;
    [Field(2)] public DateTime At;
    [Field(3)] public Guid Id;
}

[Message(2, ByteOrder = Endianness.Big)]
public sealed partial class Chat
{
    [Field(0)] public string Text { get; set; } = "";
    [Field(1)] public List<string> Tags { get; set; } = [];
    [Field(2)] public int[] Numbers { get; set; } = [];
    [Field(3)] public Move? Last { get; set; }
    [Field(4)] public Utf8Field Quote { get; set; }
}

[MessageUnion(3, typeof(Dot), typeof(Line))]
public abstract partial record Shape;

[Message(4)]
public sealed partial record Dot : Shape
{
    [Field(0)] public short X { get; init; }
}

[Message(5)]
public sealed partial record Line([property: Field(0)] int Length, [property: Field(1)] string Label) : Shape;

/// <summary>Fixed-width fields laid out as their wire form: written and read as one block.</summary>
[Message(6)]
public partial struct Position
{
    [Field(0)] public int Id;
    [Field(1)] public float X;
    [Field(2)] public long Tick;
}
