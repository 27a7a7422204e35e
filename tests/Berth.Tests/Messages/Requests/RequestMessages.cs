using Berth.Messages;

namespace Berth.Tests.Messages.Requests;

/// <summary>A request carrying a number.</summary>
[Message(40)]
public partial struct Ping
{
    [Field(0)] public long Value;
}

/// <summary>The reply to a <see cref="Ping"/>.</summary>
[Message(41)]
public partial struct Pong
{
    [Field(0)] public long Value;
}
