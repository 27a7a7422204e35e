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
    /// <remarks>
    /// Unless the readable bytes cross the ring's end, the frames are cut out of one run of the ring's array with an
    /// offset, each body handed over as a sequence over that array, and the ring consumed once at the end; only a
    /// wrapped ring is walked as a <see cref="ReadOnlySequence{T}"/> sliced per frame. Both walks give the handler the
    /// same bodies and stop at the same frame for the same reason.
    /// </remarks>
    public int DeliverFrames(RingBuffer ring, bool lendRing)
    {
        var pass = new DeliveryPass { Outcome = FrameReadResult.Incomplete };
        gate.BeginDispatch(lendRing ? ring.Storage : null);
        try
        {
            if (ring.TryGetContiguousReadable(out var block))
            {
                DeliverBlock(block, ref pass);
            }
            else
            {
                DeliverWrapped(ring.Readable, ref pass);
            }

            if (pass.Frames > 0)
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

        metrics.FramesReceived.Add(pass.Frames);
        switch (pass.Outcome)
        {
            case FrameReadResult.TooLarge:
                lifetime.CloseForBadInput(DisconnectReason.FrameTooLarge);
                break;
            case FrameReadResult.Malformed:
                lifetime.CloseForBadInput(DisconnectReason.MalformedFrame);
                break;
        }

        ring.Consume(pass.Consumed);
        if (lifetime.IsClosing)
        {
            return 1;
        }

        if (pass.Paused)
        {
            return Paused;
        }

        lifetime.Activity.PartialFrameLeft(ring.Length, frameBegan: pass.Frames > 0);
        return BytesStillMissing(ring);
    }

    /// <summary>The frames in one run of the ring's array; a frame counts as consumed before its handler runs.</summary>
    private void DeliverBlock(ArraySegment<byte> block, ref DeliveryPass pass)
    {
        var array = block.Array!;
        var start = block.Offset;
        var offset = start;
        var end = start + block.Count;
        var headerLength = _format.HeaderLength;
        while (!lifetime.IsClosing
            && !(pass.Paused = gate.IsShut)
            && (pass.Outcome = decoder.TryReadContiguousFrame(new ReadOnlySpan<byte>(array, offset, end - offset), out var bodyLength)) == FrameReadResult.Frame)
        {
            var bodyStart = offset + headerLength;
            offset = bodyStart + bodyLength;
            pass.Consumed = offset - start;
            pass.Frames++;
            handler.OnFrame(connection, new ReadOnlySequence<byte>(array, bodyStart, bodyLength));
        }
    }

    /// <summary>The frames in a ring whose readable bytes cross its end, some of which may too.</summary>
    private void DeliverWrapped(ReadOnlySequence<byte> unread, ref DeliveryPass pass)
    {
        var available = unread.Length;
        while (!lifetime.IsClosing
            && !(pass.Paused = gate.IsShut)
            && (pass.Outcome = decoder.TryReadFrame(ref unread, out var body)) == FrameReadResult.Frame)
        {
            pass.Consumed = (int)(available - unread.Length);
            pass.Frames++;
            handler.OnFrame(connection, body);
        }
    }

    private int BytesStillMissing(RingBuffer ring)
    {
        var partial = ring.Length;
        if (partial < _format.HeaderLength)
        {
            return 1;
        }

        Span<byte> header = stackalloc byte[4];
        header = header[.._format.HeaderLength];
        ring.Readable.Slice(0, header.Length).CopyTo(header);
        var announced = _format.ReadAnnounced(header);
        var frameLength = (long)announced + (_format.LengthIncludesHeader ? 0 : _format.HeaderLength);
        return (int)Math.Max(1, frameLength - partial);
    }

    /// <summary>How far one call of <see cref="DeliverFrames"/> got, kept current as each frame is handed over.</summary>
    private struct DeliveryPass
    {
        public int Frames;
        public int Consumed;
        public bool Paused;
        public FrameReadResult Outcome;
    }
}
