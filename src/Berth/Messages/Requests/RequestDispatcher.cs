using System.Buffers;
using Berth.Connections;

namespace Berth.Messages.Requests;

/// <summary>Handles one request: the correlation id to answer with and the request's body, valid only during the call.</summary>
internal delegate void RequestEntry(Connection connection, long correlation, in ReadOnlySequence<byte> body);

/// <summary>
/// The answering side of a <see cref="Connections.Packets.PacketRouter"/>: routes each request envelope to the handler
/// mapped to the message id it carries. A request too short for its envelope closes the connection with
/// <see cref="DisconnectReason.MalformedMessage"/>; one for an id nobody mapped closes it with <see cref="DisconnectReason.UnknownMessage"/>.
/// </summary>
internal sealed class RequestDispatcher
{
    private readonly Dictionary<int, RequestEntry> _entries = [];

    /// <exception cref="ArgumentException">A request handler is already mapped to <paramref name="messageId"/>.</exception>
    public void Add(int messageId, RequestEntry entry) => _entries.Add(messageId, entry);

    public void Dispatch(Connection connection, in ReadOnlySequence<byte> afterKind)
    {
        if (!RequestEnvelope.TryReadTail(afterKind, out var correlation, out var messageId))
        {
            connection.Lifetime.CloseForMalformedMessage(new MessageFormatException("Envelope", sizeof(int), MessageFault.Truncated, "the body ended inside the envelope"));
            return;
        }

        if (!_entries.TryGetValue(messageId, out var entry))
        {
            connection.Abort(DisconnectReason.UnknownMessage);
            return;
        }

        entry(connection, correlation, afterKind.Slice(RequestEnvelope.TailLength));
    }
}
