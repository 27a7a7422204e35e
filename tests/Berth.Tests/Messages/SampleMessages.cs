using Berth.Buffers;
using Berth.Messages;

namespace Berth.Tests.Messages;

public enum Direction : byte
{
    North,
    East,
    South,
    West,
}

[Flags]
public enum Rights : long
{
    None = 0,
    Read = 1,
    Admin = 1L << 40,
}

/// <summary>Five fixed-width fields: the blittable case that must cost nothing per message.</summary>
[Message(1)]
public partial struct Move
{
    [Field(0)] public int PlayerId;
    [Field(1)] public float X;
    [Field(2)] public float Y;
    [Field(3)] public Direction Facing;
    [Field(4)] public long Tick;
}

/// <summary>Every scalar field type, big-endian.</summary>
[Message(2, ByteOrder = Endianness.Big)]
public partial record struct Scalars(
    [property: Field(0)] byte U8,
    [property: Field(1)] sbyte I8,
    [property: Field(2)] bool Flag,
    [property: Field(3)] short I16,
    [property: Field(4)] ushort U16,
    [property: Field(5)] char Letter,
    [property: Field(6)] int I32,
    [property: Field(7)] uint U32,
    [property: Field(8)] long I64,
    [property: Field(9)] ulong U64,
    [property: Field(10)] float F32,
    [property: Field(11)] double F64,
    [property: Field(12)] decimal Money,
    [property: Field(13)] Guid Id,
    [property: Field(14)] DateTime At,
    [property: Field(15)] TimeSpan Span,
    [property: Field(16)] Rights Rights);

/// <summary>Strings, byte runs, collections, nested messages and the nullable forms, in a class.</summary>
[Message(3, MaxCollectionCount = 64)]
public sealed partial class Chat
{
    [Field(0)] public string Text { get; set; } = "";
    [Field(1)] public string? Nick { get; set; }
    [Field(2)] public byte[] Blob { get; set; } = [];
    [Field(3)] public ReadOnlyMemory<byte> Memory { get; set; }
    [Field(4)] public int[] Numbers { get; set; } = [];
    [Field(5)] public List<string> Tags { get; set; } = [];
    [Field(6)] public Move Last { get; set; }
    [Field(7)] public Move? Maybe { get; set; }
    [Field(8)] public int? Count { get; set; }
    [Field(9)] public List<Move> Path { get; set; } = [];
    [Field(10)] public string?[]? Optional { get; set; }
    [Field(11)] public Guid? Session { get; set; }
    [Field(12)] public Direction? Heading { get; set; }
    [Field(13)] public Point? Where { get; set; }
}

/// <summary>A class message nested by reference.</summary>
[Message(4)]
public sealed partial record Point([property: Field(0)] int X, [property: Field(1)] int Y);

/// <summary>A chain of itself, for the depth bound.</summary>
[Message(5, MaxDepth = 4)]
public sealed partial class Node
{
    [Field(0)] public int Value { get; init; }
    [Field(1)] public Node? Next { get; init; }
}

/// <summary>Version 1 of a contract: two fields.</summary>
[Message(6)]
public partial struct ProfileV1
{
    [Field(0)] public int Level;
    [Field(1)] public string Name;
}

/// <summary>Version 2 of the same contract: two more trailing fields.</summary>
[Message(7)]
public partial struct ProfileV2
{
    [Field(0)] public int Level;
    [Field(1)] public string Name;
    [Field(2)] public long Score;
    [Field(3)] public List<int> Badges;
}

/// <summary>A small size bound.</summary>
[Message(8, MaxEncodedSize = 16)]
public partial struct Small
{
    [Field(0)] public string Text;
}

/// <summary>A message with readonly fields set through its constructor.</summary>
[Message(9)]
public readonly partial struct Pair
{
    public Pair(int left, string right)
    {
        Left = left;
        Right = right;
    }

    [Field(0)] public int Left { get; }
    [Field(1)] public string Right { get; }
}

/// <summary>A union: one handler or field takes any of its members.</summary>
[MessageUnion(10, typeof(Circle), typeof(Square))]
public abstract partial record Shape;

/// <summary>A member of <see cref="Shape"/>.</summary>
[Message(11)]
public sealed partial record Circle : Shape
{
    [Field(0)] public float Radius { get; init; }
}

/// <summary>Another member of <see cref="Shape"/>.</summary>
[Message(12)]
public sealed partial record Square : Shape
{
    [Field(0)] public float Side { get; init; }
    [Field(1)] public string Label { get; init; } = "";
}

/// <summary>Unions as fields: one, a list of them, an optional one.</summary>
[Message(13)]
public sealed partial class Drawing
{
    [Field(0)] public Shape Main { get; set; } = new Circle();
    [Field(1)] public List<Shape> Layers { get; set; } = [];
    [Field(2)] public Shape? Extra { get; set; }
}

/// <summary>A room line with its text as a string: the owning form.</summary>
[Message(42)]
public sealed partial record SayText([property: Field(0)] int Room, [property: Field(1)] string Text);

/// <summary>The same layout as <see cref="SayText"/> with the text as a view into the frame: the form that allocates nothing.</summary>
[Message(43)]
public partial struct SayView
{
    [Field(0)] public int Room;
    [Field(1)] public Utf8Field Text;
}

/// <summary>A view with a field after it, so a test sees where reading the view left the reader.</summary>
[Message(44)]
public partial struct ViewThenTail
{
    [Field(0)] public Utf8Field Text;
    [Field(1)] public int Tail;
}
