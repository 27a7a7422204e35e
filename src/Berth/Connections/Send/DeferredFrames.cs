using Berth.Buffers;
using Berth.Framing;

namespace Berth.Connections.Send;

/// <summary>
/// Frames other threads queue while the receive loop's thread holds a <see cref="SendQueue"/>'s pending buffer for
/// the replies of the batch it delivers. They wait here, in the order they were accepted, and move behind the replies
/// queued so far, whole, when that thread next looks (its next reply, or the end of its batch).
/// </summary>
internal sealed class DeferredFrames(BufferPool pool, int segmentSize, LengthFieldFormat format)
{
    private readonly FrameDecoder _decoder = new(format);

    /// <summary>Where a frame accepted while the replies hold the pending buffer is written.</summary>
    public PooledBufferWriter Output { get; } = new(pool, segmentSize);

    /// <summary>Frames waiting.</summary>
    public int Count { get; private set; }

    /// <summary>A frame was written to <see cref="Output"/>.</summary>
    public void Added() => Count++;

    /// <summary>
    /// Appends every waiting frame to <paramref name="pending"/> and records each one's end in
    /// <paramref name="unacknowledged"/>, in stream order; returns how many moved.
    /// </summary>
    public int MoveBehind(PooledBufferWriter pending, UnacknowledgedFrames unacknowledged)
    {
        var moved = Count;
        // The frames were encoded by the queue, so each one reads back whole; their lengths are taken from their own
        // headers rather than kept on the side for a path this rare.
        var frames = Output.WrittenSequence;
        while (_decoder.TryReadFrame(ref frames, out var body) == FrameReadResult.Frame)
        {
            unacknowledged.Accepted(format.HeaderLength + (int)body.Length);
        }

        for (var i = 0; i < Output.SegmentCount; i++)
        {
            var segment = Output.Segment(i);
            segment.AsSpan().CopyTo(pending.GetSpan(segment.Count));
            pending.Advance(segment.Count);
        }

        Reset();
        return moved;
    }

    /// <summary>Forgets every waiting frame and returns its memory to the pool.</summary>
    public void Reset()
    {
        Output.Reset();
        Count = 0;
    }
}
