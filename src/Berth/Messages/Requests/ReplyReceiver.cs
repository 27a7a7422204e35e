using System.Buffers;
using Berth.Buffers;
using Berth.Connections;

namespace Berth.Messages.Requests;

/// <summary>
/// The requesting side of a <see cref="Connections.Packets.PacketRouter"/>: hands each reply or error reply to the request
/// that awaits it. A reply to a request that timed out or was cancelled is discarded and counted
/// (<c>berth.requests.late_replies</c>); one naming a correlation id never issued, or a malformed one, closes the connection
/// with <see cref="DisconnectReason.MalformedMessage"/>.
/// </summary>
internal static class ReplyReceiver
{
    public static void OnReply(Connection connection, in ReadOnlySequence<byte> afterKind)
    {
        if (Claim(connection, afterKind, out var tag) is not { } request)
        {
            return;
        }

        try
        {
            request.Complete(tag, afterKind.Slice(RequestEnvelope.TailLength));
        }
        catch (MessageFormatException e)
        {
            connection.Lifetime.CloseForMalformedMessage(e);
        }
    }

    public static void OnError(Connection connection, in ReadOnlySequence<byte> afterKind)
    {
        if (Claim(connection, afterKind, out var code) is not { } request)
        {
            return;
        }

        string message;
        try
        {
            var reader = new PacketReader(afterKind.Slice(RequestEnvelope.TailLength));
            message = MessageWire.ReadString(ref reader, "Error.Message");
        }
        catch (MessageFormatException e)
        {
            request.Fail(e);
            connection.Lifetime.CloseForMalformedMessage(e);
            return;
        }

        request.Fail(new RequestRejectedException(code, message));
    }

    private static PendingRequest? Claim(Connection connection, in ReadOnlySequence<byte> afterKind, out int tag)
    {
        if (!RequestEnvelope.TryReadTail(afterKind, out var correlation, out tag))
        {
            connection.Lifetime.CloseForMalformedMessage(new MessageFormatException("Envelope", sizeof(int), MessageFault.Truncated, "the body ended inside the envelope"));
            return null;
        }

        var requests = connection.PendingRequests;
        if (requests?.TryRemove(correlation) is { } request)
        {
            return request;
        }

        if (requests is null || correlation <= 0 || correlation > requests.LastIssued)
        {
            connection.Lifetime.CloseForMalformedMessage(new MessageFormatException("Envelope.Correlation", sizeof(int), MessageFault.Malformed, $"a reply to request {correlation}, never sent"));
            return null;
        }

        connection.Metrics.LateReplies.Add(1);
        return null;
    }
}
