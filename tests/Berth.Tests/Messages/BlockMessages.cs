using Berth.Buffers;
using Berth.Messages;

namespace Berth.Tests.Messages;

/// <summary>Fixed-width fields in wire order with no padding: its memory is its wire form, copied as one block.</summary>
[Message(50)]
public partial struct BlockPosition
{
    [Field(0)] public int Id;
    [Field(1)] public float X;
    [Field(2)] public short Layer;
    [Field(3)] public char Letter;
    [Field(4)] public Direction Facing;
    [Field(5)] public sbyte Mood;
    [Field(6)] public ushort Flags;
    [Field(7)] public long Tick;
    [Field(8)] public double Speed;
}

/// <summary>The same fields in the other byte order: written field by field on a little-endian machine.</summary>
[Message(51, ByteOrder = Endianness.Big)]
public partial struct BlockPositionBig
{
    [Field(0)] public int Id;
    [Field(1)] public float X;
    [Field(2)] public short Layer;
    [Field(3)] public char Letter;
    [Field(4)] public Direction Facing;
    [Field(5)] public sbyte Mood;
    [Field(6)] public ushort Flags;
    [Field(7)] public long Tick;
    [Field(8)] public double Speed;
}

/// <summary>Declared in the opposite order to its wire order, so its memory is not its wire form.</summary>
[Message(52)]
public partial struct ReorderedPair
{
    [Field(1)] public int Second;
    [Field(0)] public int First;
}

/// <summary>Collections of every fixed-width element type, copied as one block in the machine's byte order.</summary>
[Message(53)]
public sealed partial class PrimitiveRuns
{
    [Field(0)] public int[] Ints { get; set; } = [];
    [Field(1)] public List<short> Shorts { get; set; } = [];
    [Field(2)] public double[] Doubles { get; set; } = [];
    [Field(3)] public List<Direction> Directions { get; set; } = [];
    [Field(4)] public char[] Letters { get; set; } = [];
    [Field(5)] public List<ulong> Longs { get; set; } = [];
    [Field(6)] public float[] Floats { get; set; } = [];
    [Field(7)] public sbyte[] Signed { get; set; } = [];
    [Field(8)] public List<Rights> Rights { get; set; } = [];
}

/// <summary>The same collections big-endian: each element turned around.</summary>
[Message(54, ByteOrder = Endianness.Big)]
public sealed partial class PrimitiveRunsBig
{
    [Field(0)] public int[] Ints { get; set; } = [];
    [Field(1)] public List<short> Shorts { get; set; } = [];
    [Field(2)] public double[] Doubles { get; set; } = [];
    [Field(3)] public List<Direction> Directions { get; set; } = [];
    [Field(4)] public char[] Letters { get; set; } = [];
    [Field(5)] public List<ulong> Longs { get; set; } = [];
    [Field(6)] public float[] Floats { get; set; } = [];
    [Field(7)] public sbyte[] Signed { get; set; } = [];
    [Field(8)] public List<Rights> Rights { get; set; } = [];
}
