using Berth.Messages;
using MemoryPack;

namespace Berth.Benchmarks.Messages;

/// <summary>The message with a string and an array as a Berth contract.</summary>
[Message(2)]
public sealed partial class Profile
{
    [Field(0)] public int Id { get; set; }
    [Field(1)] public string Name { get; set; } = "";
    [Field(2)] public int[] Scores { get; set; } = [];
}

/// <summary>The same layout as <see cref="Profile"/> with the name read as a view of the frame.</summary>
[Message(3)]
public partial struct ProfileView
{
    [Field(0)] public int Id;
    [Field(1)] public Utf8Field Name;
    [Field(2)] public int[] Scores;
}

/// <summary>The five-field message as a MemoryPack type: unmanaged, so MemoryPack copies it as one block.</summary>
[MemoryPackable]
public partial struct MemoryPackPosition
{
    public int Id;
    public float X;
    public float Y;
    public float Z;
    public long Tick;
}

/// <summary>The message with a string and an array as a MemoryPack type.</summary>
[MemoryPackable]
public sealed partial class MemoryPackProfile
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public int[] Scores { get; set; } = [];
}
