using System.Buffers;
using System.Buffers.Binary;
using Berth.Messages.Requests;

namespace Berth.Connections.Packets;

/// <summary>
/// The optional packet layer: every frame body starts with a little-endian int32 message id, and the rest goes to the
/// handler mapped to that id. A body too short for an id closes the connection with
/// <see cref="DisconnectReason.MalformedFrame"/>; an id nobody mapped closes it with <see cref="DisconnectReason.UnknownMessage"/>.
/// Derive from it to handle connects and disconnects as well. It also takes the replies to the requests its connections
/// send (<see cref="MessageRequests"/>) and routes the requests they receive (<see cref="RequestRouting"/>); the ids
/// of <see cref="EnvelopeKind"/> are reserved for that.
/// </summary>
public class PacketRouter : ConnectionHandler
{
    private readonly Dictionary<int, PacketHandler> _handlers = new()
    {
        [(int)EnvelopeKind.Reply] = ReplyReceiver.OnReply,
        [(int)EnvelopeKind.Error] = ReplyReceiver.OnError,
    };

    private RequestDispatcher? _requests;

    /// <summary>The request handlers, mapped under the request envelope's id with the first of them.</summary>
    internal RequestDispatcher Requests
    {
        get
        {
            if (_requests is null)
            {
                _requests = new RequestDispatcher();
                Map((int)EnvelopeKind.Request, _requests.Dispatch);
            }

            return _requests;
        }
    }

    /// <summary>Routes packets with <paramref name="messageId"/> to <paramref name="handler"/>. Map everything before the server starts.</summary>
    /// <exception cref="ArgumentException">The id is already mapped.</exception>
    public PacketRouter Map(int messageId, PacketHandler handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        _handlers.Add(messageId, handler);
        return this;
    }

    /// <inheritdoc />
    public sealed override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        if (body.Length < sizeof(int))
        {
            connection.Abort(DisconnectReason.MalformedFrame);
            return;
        }

        if (!_handlers.TryGetValue(MessageIdOf(body), out var handler))
        {
            connection.Abort(DisconnectReason.UnknownMessage);
            return;
        }

        handler(connection, body.Slice(sizeof(int)));
    }

    /// <summary>The id at the start of <paramref name="body"/>, read in place unless it straddles segments.</summary>
    private static int MessageIdOf(in ReadOnlySequence<byte> body)
    {
        var first = body.FirstSpan;
        if (first.Length >= sizeof(int))
        {
            return BinaryPrimitives.ReadInt32LittleEndian(first);
        }

        Span<byte> id = stackalloc byte[sizeof(int)];
        body.Slice(0, sizeof(int)).CopyTo(id);
        return BinaryPrimitives.ReadInt32LittleEndian(id);
    }
}
