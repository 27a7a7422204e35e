using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// Declares a message contract: the type (a partial struct, class or record) gets write and read code generated for
/// its <see cref="FieldAttribute"/> members and implements <see cref="IMessage{TSelf}"/>. The id goes before the body
/// on the wire wherever messages are routed, so it must be unique among the contracts one application registers.
/// </summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, Inherited = false)]
public sealed class MessageAttribute : Attribute
{
    /// <summary>Declares a message with <paramref name="id"/>.</summary>
    public MessageAttribute(int id) => Id = id;

    /// <summary>The message id.</summary>
    public int Id { get; }

    /// <summary>Byte order of every multi-byte field of this contract; little-endian unless set.</summary>
    public Endianness ByteOrder { get; set; } = Endianness.Little;

    /// <summary>Largest body this contract may encode to, in bytes; <see cref="MessageBounds.DefaultMaxEncodedSize"/> unless set.</summary>
    public int MaxEncodedSize { get; set; } = MessageBounds.DefaultMaxEncodedSize;

    /// <summary>Most elements one array or list field may hold; <see cref="MessageBounds.DefaultMaxCollectionCount"/> unless set.</summary>
    public int MaxCollectionCount { get; set; } = MessageBounds.DefaultMaxCollectionCount;

    /// <summary>Deepest nesting of messages inside this one when it is the outermost; <see cref="MessageBounds.DefaultMaxDepth"/> unless set.</summary>
    public int MaxDepth { get; set; } = MessageBounds.DefaultMaxDepth;
}
