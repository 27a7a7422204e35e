using System.Buffers;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Connections.Send;

/// <summary>
/// The frames a connection has accepted and not yet written, bounded in bytes. Producers on any thread append whole
/// frames to the pending buffer under a lock; the one sender swaps the pending buffer for the drained one and writes
/// everything it took in one gather send, so the lock is never held across I/O.
/// </summary>
internal sealed class SendQueue
{
    private readonly Lock _lock = new();
    private readonly LengthFieldFormat _format;
    private readonly FrameEncoder _encoder;
    private readonly long _limit;
    private readonly BerthMetrics _metrics;
    private readonly UnacknowledgedFrames _unacknowledged;
    private PooledBufferWriter _pending;
    private PooledBufferWriter _inFlight;
    private int _pendingFrames;
    private int _inFlightFrames;
    private long _queuedBytes;
    private long _peakQueuedBytes;
    private long _queuedFrames;
    private bool _closed;
    private TaskCompletionSource? _room;
    private long _acceptedAtLastLook = -1;

    public SendQueue(LengthFieldFormat format, long limit, BufferPool pool, int segmentSize, BerthMetrics metrics)
    {
        _metrics = metrics;
        _format = format;
        _encoder = new FrameEncoder(format);
        _limit = limit;
        ResumeBelow = limit / 2;
        _pending = new PooledBufferWriter(pool, segmentSize);
        _inFlight = new PooledBufferWriter(pool, segmentSize);
        _unacknowledged = new UnacknowledgedFrames(format.HeaderLength + format.MinBodyLength);
    }

    /// <summary>Bytes accepted and not yet written, headers included.</summary>
    public long QueuedBytes => Volatile.Read(ref _queuedBytes);

    /// <summary>The most bytes the queue ever held: what proves its bound, where sampling could miss the peak.</summary>
    public long PeakQueuedBytes => Volatile.Read(ref _peakQueuedBytes);

    /// <summary>
    /// True while the queue holds at least its limit: the receive loop then delivers no further frame and reads
    /// nothing until the queue drained to <see cref="ResumeBelow"/>.
    /// </summary>
    public bool OverLimit => QueuedBytes >= _limit;

    /// <summary>True once <see cref="Close"/> or <see cref="Release"/> ran: every later frame is refused.</summary>
    public bool IsClosed => Volatile.Read(ref _closed);

    /// <summary>Queued bytes at or under which a paused receive loop resumes: half the limit, so it does not flap.</summary>
    public long ResumeBelow { get; }

    /// <summary>
    /// What a paused receive loop waits on: set each time a written batch leaves the queue at or under
    /// <see cref="ResumeBelow"/>, and by the connection once it is closing.
    /// </summary>
    public SendSignal Drained { get; } = new();

    public AppendResult TryAppend(ReadOnlySpan<byte> body, bool fromReceiveLoop)
    {
        var frameLength = FrameLength(body.Length);
        lock (_lock)
        {
            var refusal = Refusal(frameLength, fromReceiveLoop);
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            _encoder.WriteFrame(_pending, body);
            return Accept(frameLength);
        }
    }

    public AppendResult TryAppend(in ReadOnlySequence<byte> body, bool fromReceiveLoop)
    {
        var frameLength = FrameLength(body.Length);
        lock (_lock)
        {
            var refusal = Refusal(frameLength, fromReceiveLoop);
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            _encoder.WriteFrame(_pending, body);
            return Accept(frameLength);
        }
    }

    /// <summary>
    /// Serializes a frame straight into the pending buffer. The lock is held while <paramref name="write"/> runs,
    /// so frames from different threads never interleave; a writer that throws leaves nothing behind.
    /// </summary>
    public AppendResult TryAppend<TState>(TState state, FrameWriter<TState> write, bool fromReceiveLoop)
    {
        lock (_lock)
        {
            var refusal = Refusal(_format.HeaderLength, fromReceiveLoop);
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            var mark = _pending.Mark();
            try
            {
                var writer = new PacketWriter(_pending);
                var reservation = writer.ReserveLength(_format);
                write(ref writer, state);
                writer.BackfillLength(reservation);
                writer.Flush();
            }
            catch
            {
                _pending.Rollback(mark);
                throw;
            }

            var frameLength = (int)(_pending.WrittenCount - mark.Length);
            if (Refusal(frameLength, fromReceiveLoop) is not AppendResult.Accepted)
            {
                _pending.Rollback(mark);
                return AppendResult.Full;
            }

            return Accept(frameLength);
        }
    }

    /// <summary>A task that completes when some queued bytes were written or the queue closed.</summary>
    public Task RoomAvailable()
    {
        lock (_lock)
        {
            if (_closed || _queuedBytes == 0)
            {
                return Task.CompletedTask;
            }

            _room ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            return _room.Task;
        }
    }

    /// <summary>Takes everything pending for the sender, or null when nothing is.</summary>
    public PooledBufferWriter? TakeBatch()
    {
        lock (_lock)
        {
            if (_pending.WrittenCount == 0)
            {
                return null;
            }

            (_pending, _inFlight) = (_inFlight, _pending);
            _inFlightFrames = _pendingFrames;
            _pendingFrames = 0;
            return _inFlight;
        }
    }

    /// <summary>
    /// The sender wrote <paramref name="batch"/>: it is counted as sent, its memory goes back to the pool and its room
    /// is freed.
    /// </summary>
    public void BatchWritten(PooledBufferWriter batch)
    {
        var bytes = batch.WrittenCount;
        var frames = _inFlightFrames;
        _metrics.FramesSent.Add(frames);
        _metrics.BytesSent.Add(bytes);
        batch.Reset();
        TaskCompletionSource? room;
        lock (_lock)
        {
            _queuedBytes -= bytes;
            _queuedFrames -= frames;
            room = _room;
            _room = null;
        }

        _metrics.SendQueueBytes.Add(-bytes);
        room?.TrySetResult();
        if (QueuedBytes <= ResumeBelow)
        {
            Drained.Set();
        }
    }

    /// <summary>
    /// True when everything accepted was written but the peer may not have acknowledged all of it, so the record of
    /// frame ends is still kept, and no frame was accepted since the previous call: only a connection gone quiet is
    /// worth asking the socket about. A busy one keeps its record (and its array) instead of returning the array to
    /// the shared pool at every sweep and renting one again a moment later, which, over many busy connections,
    /// returned more arrays at once than the pool keeps and so allocated new ones. Read without the lock, it only
    /// says whether asking the socket is worth it; only the timeout sweeper calls it.
    /// </summary>
    public bool QuietAndAwaitingAcknowledgement()
    {
        var accepted = _unacknowledged.AcceptedBytes;
        var quiet = accepted == _acceptedAtLastLook;
        _acceptedAtLastLook = accepted;
        return quiet && QueuedBytes == 0 && _unacknowledged.Recording;
    }

    /// <summary>
    /// Forgets the record of frame ends once <paramref name="acknowledgedBytes"/> covers every accepted byte, or at
    /// once when the transport cannot tell (<see cref="Transport.PeerAcknowledgement.Unknown"/>: no abort will read it).
    /// </summary>
    public void ForgetAcknowledged(long acknowledgedBytes)
    {
        lock (_lock)
        {
            if (!_closed)
            {
                _unacknowledged.ForgetIfAcknowledged(
                    acknowledgedBytes == Transport.PeerAcknowledgement.Unknown ? long.MaxValue : acknowledgedBytes);
            }
        }
    }

    /// <summary>Refuses every later frame; frames already queued stay for the sender to flush.</summary>
    public void Close()
    {
        TaskCompletionSource? room;
        lock (_lock)
        {
            _closed = true;
            room = _room;
            _room = null;
        }

        room?.TrySetResult();
    }

    /// <summary>
    /// Called once the sender has stopped: returns every buffer to the pool and reports what was never delivered.
    /// Given how many bytes of the stream the peer acknowledged (<paramref name="acknowledgedBytes"/>, read when the
    /// connection was aborted), that is every frame not wholly acknowledged, written or not; otherwise (not aborted,
    /// or the platform cannot tell: <see cref="Transport.PeerAcknowledgement.Unknown"/>) every frame never written.
    /// </summary>
    public (long Frames, long Bytes) Release(long acknowledgedBytes)
    {
        lock (_lock)
        {
            _closed = true;
            var queued = (_queuedFrames, _queuedBytes);
            var unsent = acknowledgedBytes == Transport.PeerAcknowledgement.Unknown ? queued : _unacknowledged.After(acknowledgedBytes);
            _unacknowledged.Release();
            _pending.Reset();
            _inFlight.Reset();
            _pendingFrames = 0;
            _inFlightFrames = 0;
            _queuedFrames = 0;
            _queuedBytes = 0;
            _metrics.SendQueueBytes.Add(-queued._queuedBytes);
            return unsent;
        }
    }

    private int FrameLength(long bodyLength)
    {
        _format.CheckBodyLength(bodyLength, "body");
        return _format.HeaderLength + (int)bodyLength;
    }

    /// <summary>
    /// An empty queue takes any frame, so a frame larger than the limit is still sendable. A frame sent from the
    /// receive loop (a reply) is taken while the queue is under its limit, even if it ends over it: the receive loop
    /// delivers nothing more until the queue drained, so the overshoot is at most the replies to one frame, and a
    /// peer that pipelines but reads its replies is never refused.
    /// </summary>
    private AppendResult Refusal(int frameLength, bool fromReceiveLoop)
    {
        if (_closed)
        {
            return AppendResult.Closed;
        }

        var fits = _queuedBytes == 0 || (fromReceiveLoop ? _queuedBytes < _limit : _queuedBytes + frameLength <= _limit);
        return fits ? AppendResult.Accepted : AppendResult.Full;
    }

    private AppendResult Accept(int frameLength)
    {
        _pendingFrames++;
        _unacknowledged.Accepted(frameLength);
        _queuedBytes += frameLength;
        if (_queuedBytes > _peakQueuedBytes)
        {
            Volatile.Write(ref _peakQueuedBytes, _queuedBytes);
        }

        _queuedFrames++;
        // Per frame, so only when something listens: the JIT inlines the add into this path, a NativeAOT build calls it.
        if (_metrics.SendQueueBytes.Enabled)
        {
            _metrics.SendQueueBytes.Add(frameLength);
        }

        return _pending.WrittenCount == frameLength ? AppendResult.AcceptedIntoEmpty : AppendResult.Accepted;
    }
}
