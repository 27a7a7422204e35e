using System.Buffers;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Tcp.Receive;

/// <summary>
/// Delivers every whole frame in the ring to the handler and consumes it. Frames the handler sends back during one
/// delivery go out in one batch afterwards. Bad input or a throwing handler closes this connection only.
/// </summary>
internal sealed class FrameDelivery(Connection connection, FrameDecoder decoder)
{
    private readonly LengthFieldFormat _format = decoder.Format;

    /// <summary>Returns how many more bytes the next receive needs at least: the rest of a partial frame, or 1.</summary>
    public int DeliverFrames(RingBuffer ring)
    {
        var unread = ring.Readable;
        var available = unread.Length;
        var frames = 0;
        var outcome = FrameReadResult.Incomplete;
        connection.BeginDispatch();
        try
        {
            while (!connection.IsClosing
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

        TcpMetrics.FramesReceived.Add(frames);
        switch (outcome)
        {
            case FrameReadResult.TooLarge:
                TcpLog.ClosedByPolicy(connection.Logger, connection.Id, DisconnectReason.FrameTooLarge);
                connection.Close(DisconnectReason.FrameTooLarge, null, flush: false);
                break;
            case FrameReadResult.Malformed:
                TcpLog.ClosedByPolicy(connection.Logger, connection.Id, DisconnectReason.MalformedFrame);
                connection.Close(DisconnectReason.MalformedFrame, null, flush: false);
                break;
        }

        ring.Consume((int)(available - unread.Length));
        return connection.IsClosing ? 1 : BytesStillMissing(unread);
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
