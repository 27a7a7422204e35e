using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;
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
        if (!TryReadMessageId(body, out var messageId, out var payload))
        {
            connection.Abort(DisconnectReason.MalformedFrame);
            return;
        }

        if (!_handlers.TryGetValue(messageId, out var handler))
        {
            connection.Abort(DisconnectReason.UnknownMessage);
            return;
        }

        handler(connection, payload);
    }

    /// <summary>
    /// The id at the start of <paramref name="body"/> and the payload after it; false when the body is shorter than an
    /// id. A body that is one run of one array, the usual frame, is read and cut as that run, without the sequence's
    /// first-span lookup and slicing; otherwise the id is read in place when the first span holds it (which also shows
    /// the body is long enough, without summing its segments).
    /// </summary>
    private static bool TryReadMessageId(in ReadOnlySequence<byte> body, out int messageId, out ReadOnlySequence<byte> payload)
    {
        if (ArrayRun.TryGet(body, out var array, out var start))
        {
            var run = ArrayRun.Span(body, array, start);
            if (run.Length < sizeof(int))
            {
                messageId = 0;
                payload = default;
                return false;
            }

            messageId = BinaryPrimitives.ReadInt32LittleEndian(run);
            payload = new ReadOnlySequence<byte>(array, start + sizeof(int), run.Length - sizeof(int));
            return true;
        }

        var first = body.FirstSpan;
        if (first.Length >= sizeof(int))
        {
            messageId = BinaryPrimitives.ReadInt32LittleEndian(first);
        }
        else if (!TryReadSplitMessageId(body, out messageId))
        {
            payload = default;
            return false;
        }

        payload = body.Slice(sizeof(int));
        return true;
    }

    private static bool TryReadSplitMessageId(in ReadOnlySequence<byte> body, out int messageId)
    {
        messageId = 0;
        if (body.Length < sizeof(int))
        {
            return false;
        }

        Span<byte> id = stackalloc byte[sizeof(int)];
        body.Slice(0, sizeof(int)).CopyTo(id);
        messageId = BinaryPrimitives.ReadInt32LittleEndian(id);
        return true;
    }
}
