using Berth.Buffers;

namespace Berth.Messages;

/// <summary>What a <see cref="MessageRegistry"/> knows about one contract.</summary>
/// <param name="Id">The message id.</param>
/// <param name="Type">The message type.</param>
/// <param name="ByteOrder">Byte order of its multi-byte fields.</param>
/// <param name="Bounds">The limits it enforces.</param>
public sealed record MessageTypeInfo(int Id, Type Type, Endianness ByteOrder, MessageBounds Bounds);
