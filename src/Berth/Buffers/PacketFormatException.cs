namespace Berth.Buffers;

/// <summary>A packet ended early or held a value its field cannot have.</summary>
public sealed class PacketFormatException : Exception
{
    /// <summary>Creates the exception for <paramref name="field"/> at byte <paramref name="offset"/> of the packet.</summary>
    public PacketFormatException(string field, long offset, string reason)
        : base($"{field} at offset {offset}: {reason}")
    {
        Field = field;
        Offset = offset;
    }

    /// <summary>The kind of field being read.</summary>
    public string Field { get; }

    /// <summary>Offset of the field from the start of the packet.</summary>
    public long Offset { get; }
}
