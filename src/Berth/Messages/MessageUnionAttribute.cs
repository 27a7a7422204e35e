using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// Declares a union of message contracts: an abstract partial class (or record) whose members are
/// <see cref="MessageAttribute"/> types deriving from it. On the wire a union is the member's message id (int32 in the
/// union's byte order) followed by the member's body, so one handler or one field takes any member. The union has
/// an id of its own for when it is the outermost message.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class MessageUnionAttribute : Attribute
{
    /// <summary>Declares a union with <paramref name="id"/> whose members are <paramref name="members"/>.</summary>
    public MessageUnionAttribute(int id, params Type[] members)
    {
        Id = id;
        Members = members;
    }

    /// <summary>The union's message id.</summary>
    public int Id { get; }

    /// <summary>The member contracts.</summary>
    public IReadOnlyList<Type> Members { get; }

    /// <summary>Byte order of the member id and of every member; little-endian unless set.</summary>
    public Endianness ByteOrder { get; set; } = Endianness.Little;

    /// <summary>Largest body, member id included, in bytes; <see cref="MessageBounds.DefaultMaxEncodedSize"/> unless set.</summary>
    public int MaxEncodedSize { get; set; } = MessageBounds.DefaultMaxEncodedSize;

    /// <summary>Most elements per collection; the members enforce their own, this is what <see cref="IMessage{TSelf}.Bounds"/> reports.</summary>
    public int MaxCollectionCount { get; set; } = MessageBounds.DefaultMaxCollectionCount;

    /// <summary>Deepest nesting when the union is the outermost message; <see cref="MessageBounds.DefaultMaxDepth"/> unless set.</summary>
    public int MaxDepth { get; set; } = MessageBounds.DefaultMaxDepth;
}
