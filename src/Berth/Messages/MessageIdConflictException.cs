namespace Berth.Messages;

/// <summary>Two message contracts were registered with one id.</summary>
public sealed class MessageIdConflictException : Exception
{
    /// <summary>Creates the exception for <paramref name="registered"/> and the <paramref name="conflicting"/> contract added after it.</summary>
    public MessageIdConflictException(MessageTypeInfo registered, MessageTypeInfo conflicting)
        : base($"Message id {conflicting.Id} is taken by {Describe(registered)}; {Describe(conflicting)} cannot have it too.")
    {
        ArgumentNullException.ThrowIfNull(registered);
        Registered = registered;
        Conflicting = conflicting;
    }

    /// <summary>The contract that had the id first.</summary>
    public MessageTypeInfo Registered { get; }

    /// <summary>The contract that asked for the same id.</summary>
    public MessageTypeInfo Conflicting { get; }

    private static string Describe(MessageTypeInfo info) => $"{info.Type.FullName} ({info.Type.Assembly.GetName().Name})";
}
