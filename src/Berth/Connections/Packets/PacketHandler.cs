using System.Buffers;

namespace Berth.Connections.Packets;

/// <summary>Handles one packet; <paramref name="payload"/> is the body after its message id, valid only during the call.</summary>
public delegate void PacketHandler(Connection connection, in ReadOnlySequence<byte> payload);
