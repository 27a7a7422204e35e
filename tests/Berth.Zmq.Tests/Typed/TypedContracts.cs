using Berth.Messages;

namespace Berth.Zmq.Tests.Typed;

/// <summary>Five fixed-width fields: must cost nothing per message.</summary>
[Message(11)]
public partial struct Position
{
    [Field(0)] public int PlayerId;
    [Field(1)] public float X;
    [Field(2)] public float Y;
    [Field(3)] public byte Facing;
    [Field(4)] public long Tick;
}

[Message(12)]
public partial struct Quote
{
    [Field(0)] public int Symbol;
    [Field(1)] public long Delay;
}

[Message(13)]
public partial struct Price
{
    [Field(0)] public int Symbol;
    [Field(1)] public long Cents;
}

/// <summary>A string under a small size bound: the shape that malformed and oversized input is made of.</summary>
[Message(14, MaxEncodedSize = 64)]
public sealed partial class Note
{
    [Field(0)] public string Text { get; set; } = "";
}
