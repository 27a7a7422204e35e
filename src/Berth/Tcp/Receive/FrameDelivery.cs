using System.Buffers;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Tcp.Receive;

/// <summary>
/// Delivers every whole frame in the ring to the handler and consumes it, unless the send queue is over its limit:
/// then it stops before the next frame and the receive loop waits for the queue to drain. Frames the handler sends
/// back during one delivery go out in one batch afterwards. Bad input or a throwing handler closes this connection only.
/// </summary>
internal sealed class FrameDelivery(Connection connection, FrameDecoder decoder)
{
    /// <summary>What <see cref="DeliverFrames"/> returns when it stopped because the send queue is over its limit.</summary>
    public const int Paused = 0;

    private readonly LengthFieldFormat _format = decoder.Format;

    /// <summary>
    /// Returns <see cref="Paused"/> when the send queue is over its limit (frames may remain in the ring), otherwise
    /// how many more bytes the next receive needs at least: the rest of a partial frame, or 1.
    /// </summary>
    public int DeliverFrames(RingBuffer ring)
    {
        var unread = ring.Readable;
        var available = unread.Length;
        var frames = 0;
        var paused = false;
        var outcome = FrameReadResult.Incomplete;
        connection.BeginDispatch();
        try
        {
            while (!connection.IsClosing
                && !(paused = connection.SendQueueOverLimit)
                && (outcome = decoder.TryReadFrame(ref unread, out var body)) == FrameReadResult.Frame)
            {
                frames++;
                connection.Handler.OnFrame(connection, body);
            }
        }
        catch (Exception e)
        {
            TcpLog.HandlerFailed(connection.Logger, connection.Id, e);
            connection.Close(DisconnectReason.HandlerFailed, e, flush: false);
        }
        finally
        {
            connection.EndDispatch();
        }

        connection.Metrics.FramesReceived.Add(frames);
        switch (outcome)
        {
            case FrameReadResult.TooLarge:
                connection.CloseForBadInput(DisconnectReason.FrameTooLarge);
                break;
            case FrameReadResult.Malformed:
                connection.CloseForBadInput(DisconnectReason.MalformedFrame);
                break;
        }

        ring.Consume((int)(available - unread.Length));
        if (connection.IsClosing)
        {
            return 1;
        }

        if (paused)
        {
            return Paused;
        }

        connection.PartialFrameLeft(unread.Length, frameBegan: frames > 0);
        return BytesStillMissing(unread);
    }

    private int BytesStillMissing(in ReadOnlySequence<byte> partial)
    {
        if (partial.Length < _format.HeaderLength)
        {
            return 1;
        }

        Span<byte> header = stackalloc byte[4];
        partial.Slice(0, _format.HeaderLength).CopyTo(header);
        var announced = _format.ReadAnnounced(header[.._format.HeaderLength]);
        var frameLength = (long)announced + (_format.LengthIncludesHeader ? 0 : _format.HeaderLength);
        return (int)Math.Max(1, frameLength - partial.Length);
    }
}
