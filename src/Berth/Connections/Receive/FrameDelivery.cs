using System.Buffers;
using Berth.Buffers;
using Berth.Framing;
using Berth.Connections.Send;

namespace Berth.Connections.Receive;

/// <summary>
/// Delivers every whole frame in the ring to the handler and consumes it, unless the send queue is over its limit:
/// then it stops before the next frame and the receive loop waits for the queue to drain. Frames the handler sends
/// back during one delivery go out in one batch afterwards. Bad input or a throwing handler closes this connection only.
/// The connection itself is only the argument handed to the handler with each frame; of the send side it sees only
/// the <see cref="SendGate"/>.
/// </summary>
internal sealed class FrameDelivery(
    Connection connection,
    ConnectionHandler handler,
    FrameDecoder decoder,
    SendGate gate,
    BerthMetrics metrics,
    ConnectionLifetime lifetime)
{
    /// <summary>What <see cref="DeliverFrames"/> returns when it stopped because the send queue is over its limit.</summary>
    public const int Paused = 0;

    private readonly LengthFieldFormat _format = decoder.Format;

    /// <summary>Counts <paramref name="bytes"/> just received, for the metrics and the idle timeout.</summary>
    public void Received(int bytes)
    {
        lifetime.Activity.Received();
        metrics.BytesReceived.Add(bytes);
    }

    /// <summary>
    /// Returns <see cref="Paused"/> when the send queue is over its limit (frames may remain in the ring), otherwise
    /// how many more bytes the next receive needs at least: the rest of a partial frame, or 1. With
    /// <paramref name="lendRing"/> (this thread alone completes the connection's sends), replies that repeat a frame
    /// may be sent from the ring: the ring is not touched until this returns, and by then none of its bytes is still
    /// referred to by the send queue.
    /// </summary>
    public int DeliverFrames(RingBuffer ring, bool lendRing)
    {
        var unread = ring.Readable;
        var available = unread.Length;
        var frames = 0;
        var paused = false;
        var outcome = FrameReadResult.Incomplete;
        gate.BeginDispatch(lendRing ? ring.Storage : null);
        try
        {
            while (!lifetime.IsClosing
                && !(paused = gate.IsShut)
                && (outcome = decoder.TryReadFrame(ref unread, out var body)) == FrameReadResult.Frame)
            {
                frames++;
                handler.OnFrame(connection, body);
            }

            if (frames > 0)
            {
                handler.OnFramesDelivered(connection);
            }
        }
        catch (Exception e)
        {
            lifetime.CloseForHandlerFailure(e);
        }
        finally
        {
            gate.EndDispatch();
        }

        metrics.FramesReceived.Add(frames);
        switch (outcome)
        {
            case FrameReadResult.TooLarge:
                lifetime.CloseForBadInput(DisconnectReason.FrameTooLarge);
                break;
            case FrameReadResult.Malformed:
                lifetime.CloseForBadInput(DisconnectReason.MalformedFrame);
                break;
        }

        ring.Consume((int)(available - unread.Length));
        if (lifetime.IsClosing)
        {
            return 1;
        }

        if (paused)
        {
            return Paused;
        }

        lifetime.Activity.PartialFrameLeft(unread.Length, frameBegan: frames > 0);
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
        var frameLength = (long)announced - _format.LengthBias + _format.HeaderLength;
        return (int)Math.Max(1, frameLength - partial.Length);
    }
}
