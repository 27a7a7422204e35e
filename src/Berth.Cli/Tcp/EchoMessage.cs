using Berth.Messages;

namespace Berth.Cli.Tcp;

/// <summary>
/// What <c>berth serve --typed</c> echoes: a sequence number and a payload read as a view of the frame, so reading it
/// allocates nothing. <c>berth-load --message-id 1</c> sends frames of exactly this layout; the payload is ASCII, which
/// is valid UTF-8.
/// </summary>
[Message(1)]
internal partial struct EchoMessage
{
    [Field(0)] public int Sequence;
    [Field(1)] public Utf8Field Payload;
}
