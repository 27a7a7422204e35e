namespace Berth.Messages;

/// <summary>A message body could not be read: names the field, the byte offset where reading it failed, and why.</summary>
public sealed class MessageFormatException : Exception
{
    /// <summary>Creates the exception for <paramref name="field"/> at byte <paramref name="offset"/> of the body.</summary>
    public MessageFormatException(string field, long offset, MessageFault fault, string detail)
        : base($"{field} at offset {offset}: {fault}, {detail}")
    {
        Field = field;
        Offset = offset;
        Fault = fault;
    }

    /// <summary>The field being read, as <c>Type.Member</c>.</summary>
    public string Field { get; }

    /// <summary>Offset from the start of the body where the field began or failed.</summary>
    public long Offset { get; }

    /// <summary>Why the read failed.</summary>
    public MessageFault Fault { get; }
}
