using Berth.Messages;

namespace ChatRoom;

/// <summary>Asks to join the room under a name; answered by <see cref="Welcome"/> or an error reply.</summary>
[Message(1)]
public sealed partial class Join
{
    [Field(0)] public string Name { get; set; } = "";
}

/// <summary>The reply to a <see cref="Join"/>: who is in the room now.</summary>
[Message(2)]
public sealed partial class Welcome
{
    [Field(0)] public int Members { get; set; }
}

/// <summary>A line a member says to the room.</summary>
[Message(3)]
public sealed partial class Say
{
    [Field(0)] public string Text { get; set; } = "";
}

/// <summary>A line said in the room, sent to every member.</summary>
[Message(4)]
public sealed partial class Said
{
    [Field(0)] public string From { get; set; } = "";

    [Field(1)] public string Text { get; set; } = "";
}

/// <summary>The error codes a <see cref="Join"/> may be refused with.</summary>
public static class JoinErrors
{
    public const int NameTaken = 1;
}
