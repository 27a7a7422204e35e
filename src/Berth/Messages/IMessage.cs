using Berth.Buffers;

namespace Berth.Messages;

/// <summary>
/// A message contract. The source generator implements it for every type marked <see cref="MessageAttribute"/>;
/// write it by hand only for a contract the generator cannot describe.
/// </summary>
/// <typeparam name="TSelf">The message type itself.</typeparam>
public interface IMessage<TSelf>
    where TSelf : IMessage<TSelf>
{
    /// <summary>The message id from <see cref="MessageAttribute.Id"/>.</summary>
    static abstract int MessageId { get; }

    /// <summary>Byte order of the contract's multi-byte fields.</summary>
    static abstract Endianness ByteOrder { get; }

    /// <summary>The limits the contract enforces.</summary>
    static abstract MessageBounds Bounds { get; }

    /// <summary>Bytes a typical body takes: exact when every field has a fixed width, a starting guess otherwise.</summary>
    static abstract int SizeHint { get; }

    /// <summary>
    /// The body's size when the contract's memory is its wire form on this machine (fixed-width fields in wire order,
    /// no padding, the machine's byte order the contract's) and that size is within <see cref="Bounds"/>; 0 otherwise,
    /// the default. <see cref="MessageWriting.Write{TMessage}"/> and <see cref="MessageReading.Read{TMessage}"/> then
    /// copy the value as one block. The generator answers it; a hand-written contract keeps the default.
    /// </summary>
    static virtual int BlockSize => 0;

    /// <summary>Writes <paramref name="message"/> as a whole body (without its id).</summary>
    /// <exception cref="ArgumentException">
    /// The writer's byte order is not the contract's, a non-nullable field is null, or a bound is exceeded.
    /// </exception>
    static abstract void Write(ref PacketWriter writer, in TSelf message);

    /// <summary>
    /// Reads a body that takes the rest of <paramref name="reader"/>: fields a newer writer added after the last known
    /// one are skipped, and fields an older writer did not know are left at their defaults.
    /// </summary>
    /// <exception cref="MessageFormatException">The body is truncated, malformed or beyond a bound.</exception>
    static abstract TSelf Read(ref PacketReader reader);

    /// <summary>Writes the message inside another at nesting <paramref name="depth"/>; called by generated code.</summary>
    static abstract void WriteEmbedded(ref PacketWriter writer, in TSelf message, int depth, int maxDepth);

    /// <summary>Reads the message inside another at nesting <paramref name="depth"/>, every field present; called by generated code.</summary>
    static abstract TSelf ReadEmbedded(ref PacketReader reader, int depth, int maxDepth);
}
