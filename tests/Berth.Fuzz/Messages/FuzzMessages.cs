using Berth.Messages;

namespace Berth.Fuzz.Messages;

/// <summary>Fixed-width fields only: decoding it must allocate nothing unless it fails.</summary>
[Message(1001)]
public partial struct FuzzMove
{
    [Field(0)] public int Player;
    [Field(1)] public float X;
    [Field(2)] public FuzzHeading Heading;
    [Field(3)] public bool Running;
    [Field(4)] public long Tick;
    [Field(5)] public Guid Session;
    [Field(6)] public DateTime At;
    [Field(7)] public TimeSpan Elapsed;
    [Field(8)] public decimal Price;
    [Field(9)] public char Key;
}

public enum FuzzHeading : short
{
    Up,
    Down,
}

/// <summary>Every variable-length form: strings, bytes, collections, nested, optional and union messages.</summary>
[Message(1002, MaxCollectionCount = 32, MaxEncodedSize = 4096)]
public sealed partial class FuzzChat
{
    [Field(0)] public string Text { get; set; } = "";
    [Field(1)] public string? Nick { get; set; }
    [Field(2)] public byte[] Blob { get; set; } = [];
    [Field(3)] public ReadOnlyMemory<byte> Memory { get; set; }
    [Field(4)] public int[] Numbers { get; set; } = [];
    [Field(5)] public List<string> Tags { get; set; } = [];
    [Field(6)] public List<FuzzMove> Path { get; set; } = [];
    [Field(7)] public FuzzMove? Last { get; set; }
    [Field(8)] public int? Count { get; set; }
    [Field(9)] public string?[]? Notes { get; set; }
    [Field(10)] public FuzzTree? Tree { get; set; }
    [Field(11)] public double Score { get; set; }
    [Field(12)] public FuzzShape? Shape { get; set; }
    [Field(13)] public List<FuzzShape> Shapes { get; set; } = [];
    [Field(14)] public Utf8Field Quote { get; set; }
}

/// <summary>A union inside the chat, as an optional field and as list elements.</summary>
[MessageUnion(1004, typeof(FuzzDot), typeof(FuzzLine))]
public abstract partial class FuzzShape;

/// <summary>A member of <see cref="FuzzShape"/>.</summary>
[Message(1005)]
public sealed partial class FuzzDot : FuzzShape
{
    [Field(0)] public short X { get; set; }
}

/// <summary>Another member of <see cref="FuzzShape"/>.</summary>
[Message(1006)]
public sealed partial class FuzzLine : FuzzShape
{
    [Field(0)] public string Name { get; set; } = "";
    [Field(1)] public FuzzDot? End { get; set; }
}

/// <summary>A recursive class contract, for the depth bound.</summary>
[Message(1003, MaxCollectionCount = 4, MaxDepth = 6, MaxEncodedSize = 4096)]
public sealed partial class FuzzTree
{
    [Field(0)] public int Value { get; init; }
    [Field(1)] public FuzzTree? Left { get; init; }
    [Field(2)] public List<FuzzTree> Children { get; init; } = [];
}
