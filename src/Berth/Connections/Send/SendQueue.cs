using System.Buffers;
using System.Runtime.CompilerServices;
using Berth.Buffers;
using Berth.Framing;

namespace Berth.Connections.Send;

/// <summary>
/// The frames a connection has accepted and not yet written, bounded in bytes. Producers on any thread append whole
/// frames to the pending buffer under a lock; the one sender swaps the pending buffer for the drained one and writes
/// everything it took in one gather send, so the lock is never held across I/O.
/// </summary>
/// <remarks>
/// <para>
/// Replies are appended without the lock. The receive loop's thread, while it delivers a batch of frames (between
/// <see cref="SendGate.BeginDispatch"/> and <see cref="SendGate.EndDispatch"/>), takes the lock once at the batch's first
/// reply to hold the pending buffer for its replies, and once at the batch's end (<see cref="EndReplies"/>) to give it
/// back; in between it alone writes the pending buffer, the record of frame ends and the reply counters, so a batch
/// of replies costs two acquisitions instead of one per reply. What holds while the buffer is held:
/// </para>
/// <list type="bullet">
/// <item>The sender takes nothing (<see cref="TakeBatch"/> returns null and says the buffer is held), so it never swaps
/// the buffer being written; the batch's end wakes it if it asked meanwhile or the replies went into an empty buffer.
/// A flushing close does not shut the send side down while the buffer is held, so replies accepted before the close
/// are written, as before.</item>
/// <item>The bound counts replies as they are accepted: <see cref="QueuedBytes"/> is the bytes other threads queued
/// plus the replies of the batch under way, which the receive loop checks before each frame and other threads check
/// under the lock; the answer when full and the refusal after <see cref="Close"/> are unchanged.</item>
/// <item>A frame another thread queues meanwhile goes to <see cref="DeferredFrames"/> and is moved behind the replies
/// before the receive loop's thread appends its next reply, or at the batch's end. So a frame accepted before a reply
/// was sent (for instance one the handler waited for) goes out before it, and a frame sent after a reply went into the
/// queue goes out after it: the order of causally related sends is the order of their calls.</item>
/// <item>A reply that repeats a received frame may be borrowed: recorded as a reference to the frame's bytes in the
/// receive buffer (<see cref="LendReceiveBuffer"/>) instead of copied. Borrowed bytes never outlive the batch: only the
/// lending thread takes a batch holding them, a sender that cannot write them whole copies them before it waits, and
/// <see cref="ReturnReceiveBuffer"/> copies what is left in the pending buffer before the receive buffer changes. They
/// count in the bound, the record of frame ends and the unsent report exactly as copied ones do.</item>
/// <item>Frames are recorded in <see cref="UnacknowledgedFrames"/> in stream order (replies as they are written,
/// deferred frames as they move), and the timeout sweeper does not forget that record while it is being written.</item>
/// </list>
/// </remarks>
internal sealed class SendQueue
{
    private readonly Lock _lock = new();
    private readonly LengthFieldFormat _format;
    private readonly FrameEncoder _encoder;
    private readonly long _limit;
    private readonly BufferPool _pool;
    private readonly int _segmentSize;
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

    // Set and cleared under the lock, only by the receive loop's thread, which alone writes the next four, the pending
    // buffer, _pendingFrames and the record of frame ends while it is set (see the remarks).
    private bool _holdingForReplies;
    private bool _pendingEmptyBeforeReplies;
    private long _replyBytes;
    private int _replyFrames;
    private long _peakWithReplies;

    // The receive buffer lent for the batch under way and the thread it was lent on (see LendReceiveBuffer); written
    // only by that thread, and read by others only under the lock, after the hold on the pending buffer ended.
    private byte[]? _lender;
    private int _lendingThread;
    private bool _borrowed;

    // Under the lock: the sender asked for a batch while replies held the buffer, and the frames deferred meanwhile.
    private bool _takeRefused;
    private DeferredFrames? _deferred;
    private volatile bool _framesDeferred;

    public SendQueue(LengthFieldFormat format, long limit, BufferPool pool, int segmentSize, BerthMetrics metrics)
    {
        _metrics = metrics;
        _format = format;
        _encoder = new FrameEncoder(format);
        _limit = limit;
        _pool = pool;
        _segmentSize = segmentSize;
        ResumeBelow = limit / 2;
        _pending = new PooledBufferWriter(pool, segmentSize);
        _inFlight = new PooledBufferWriter(pool, segmentSize);
        _unacknowledged = new UnacknowledgedFrames(format.HeaderLength + format.MinBodyLength);
    }

    /// <summary>Bytes accepted and not yet written, headers included, the replies of a batch under way too.</summary>
    /// <remarks>
    /// The replies are read first: the batch's end adds them to the queued bytes before it clears them, so a reader
    /// may count them twice for a moment but never misses them.
    /// </remarks>
    public long QueuedBytes
    {
        // Read once per reply; a NativeAOT build, having no profile, inlines it only if told.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Volatile.Read(ref _replyBytes) + Volatile.Read(ref _queuedBytes);
    }

    /// <summary>
    /// The most bytes the queue ever held: what proves its bound, where sampling could miss the peak. A batch's replies
    /// count in it from that batch's end.
    /// </summary>
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

    /// <summary>
    /// Queues a frame carrying <paramref name="body"/>. <paramref name="fromReceiveLoop"/> is true only on the receive
    /// loop's thread while it delivers a batch: the frame is then a reply, appended without the lock.
    /// </summary>
    public AppendResult TryAppend(ReadOnlySpan<byte> body, bool fromReceiveLoop)
    {
        var frameLength = FrameLength(body.Length);
        if (fromReceiveLoop)
        {
            var refusal = ReplyRefusal();
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            _encoder.WriteFrame(_pending, body);
            return AcceptReply(frameLength);
        }

        lock (_lock)
        {
            var refusal = Refusal(frameLength);
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            _encoder.WriteFrame(OutputForOthers(), body);
            return Accept(frameLength);
        }
    }

    /// <summary>
    /// As <see cref="TryAppend(ReadOnlySpan{byte}, bool)"/>, for a body that may span segments. A reply whose frame
    /// lies, byte for byte, in the receive buffer lent for the batch (<see cref="LendReceiveBuffer"/>) is recorded where
    /// it lies instead of copied.
    /// </summary>
    public AppendResult TryAppend(in ReadOnlySequence<byte> body, bool fromReceiveLoop)
    {
        var frameLength = FrameLength(body.Length);
        if (fromReceiveLoop)
        {
            var refusal = ReplyRefusal();
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            if (!TryBorrow(body, frameLength))
            {
                _encoder.WriteFrame(_pending, body);
            }

            return AcceptReply(frameLength);
        }

        lock (_lock)
        {
            var refusal = Refusal(frameLength);
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            _encoder.WriteFrame(OutputForOthers(), body);
            return Accept(frameLength);
        }
    }

    /// <summary>
    /// Serializes a frame straight into the pending buffer. The lock (or, for a reply, the receive loop's hold on the
    /// buffer) lasts while <paramref name="write"/> runs, so frames from different threads never interleave; a writer
    /// that throws leaves nothing behind.
    /// </summary>
    public AppendResult TryAppend<TState>(TState state, FrameWriter<TState> write, bool fromReceiveLoop)
    {
        if (fromReceiveLoop)
        {
            var refusal = ReplyRefusal();
            return refusal is AppendResult.Accepted ? AcceptReply(Serialize(_pending, state, write)) : refusal;
        }

        lock (_lock)
        {
            var refusal = Refusal(_format.HeaderLength);
            if (refusal is not AppendResult.Accepted)
            {
                return refusal;
            }

            var output = OutputForOthers();
            var mark = output.Mark();
            var frameLength = Serialize(output, state, write);
            if (Refusal(frameLength) is not AppendResult.Accepted)
            {
                output.Rollback(mark);
                return AppendResult.Full;
            }

            return Accept(frameLength);
        }
    }

    /// <summary>
    /// Ends the receive loop's hold on the pending buffer at the end of its batch: the replies and any frame deferred
    /// meanwhile join the queue in one locked step. Returns true when the sender must be woken: the replies went into
    /// an empty buffer, or the sender asked for a batch while the buffer was held.
    /// </summary>
    public bool EndReplies()
    {
        if (!_holdingForReplies)
        {
            return false;
        }

        lock (_lock)
        {
            MoveDeferredFrames();
            _queuedBytes += _replyBytes;
            _queuedFrames += _replyFrames;
            _metrics.SendQueueBytes.Add(_replyBytes);
            if (_peakWithReplies > _peakQueuedBytes)
            {
                Volatile.Write(ref _peakQueuedBytes, _peakWithReplies);
            }

            Volatile.Write(ref _replyBytes, 0);
            _replyFrames = 0;
            _peakWithReplies = 0;
            _holdingForReplies = false;
            var wake = _pending.WrittenCount > 0 && (_pendingEmptyBeforeReplies || _takeRefused);
            _takeRefused = false;
            return wake;
        }
    }

    /// <summary>
    /// Lends <paramref name="receiveBuffer"/>, the array the receive loop's thread delivers the coming batch from, to
    /// that batch's replies: a reply that repeats a received frame byte for byte is then recorded as a reference to
    /// those bytes instead of a copy. Called only where that thread alone also completes the connection's sends (the
    /// epoll transport on its loop's thread), so no send reads a lent byte on another thread. The loan ends at
    /// <see cref="ReturnReceiveBuffer"/>, before the receive buffer changes again.
    /// </summary>
    public void LendReceiveBuffer(byte[] receiveBuffer)
    {
        _lender = receiveBuffer;
        _lendingThread = Environment.CurrentManagedThreadId;
    }

    /// <summary>
    /// Ends the loan of <see cref="LendReceiveBuffer"/>, after the batch's end ran the sender: whatever lent bytes the
    /// sender did not take are copied into pooled memory where they lie in the queue, so order, counts and the record
    /// of frame ends stay as they were. (A batch the sender took and could not write whole it copied itself, before
    /// it waited.) Returns true when the sender asked for a batch meanwhile and must be woken.
    /// </summary>
    public bool ReturnReceiveBuffer()
    {
        _lender = null;
        if (!_borrowed)
        {
            return false;
        }

        _borrowed = false;
        lock (_lock)
        {
            _pending.OwnLent();
            var wake = _takeRefused;
            _takeRefused = false;
            return wake;
        }
    }

    /// <summary>A task that completes when some queued bytes were written or the queue closed.</summary>
    public Task RoomAvailable()
    {
        lock (_lock)
        {
            if (_closed || _queuedBytes + Volatile.Read(ref _replyBytes) == 0)
            {
                return Task.CompletedTask;
            }

            _room ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            return _room.Task;
        }
    }

    /// <summary>
    /// Takes everything pending for the sender, or null when nothing is or when <paramref name="heldForReplies"/>: the
    /// receive loop's thread is appending replies, and its batch's end wakes the sender.
    /// </summary>
    public PooledBufferWriter? TakeBatch(out bool heldForReplies)
    {
        lock (_lock)
        {
            // Lent bytes are written only on the thread that lent them, before its receive buffer changes again.
            heldForReplies = _holdingForReplies
                || (_pending.HasLent && Environment.CurrentManagedThreadId != _lendingThread);
            if (heldForReplies)
            {
                _takeRefused = true;
                return null;
            }

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
            if (!_closed && !_holdingForReplies)
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
            _deferred?.Reset();
            _pendingFrames = 0;
            _inFlightFrames = 0;
            _queuedFrames = 0;
            _queuedBytes = 0;
            _metrics.SendQueueBytes.Add(-queued._queuedBytes);
            return unsent;
        }
    }

    // Once per frame; a NativeAOT build, having no profile, inlines it only if told.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int FrameLength(long bodyLength)
    {
        _format.CheckBodyLength(bodyLength, "body");
        return _format.HeaderLength + (int)bodyLength;
    }

    /// <summary>
    /// An empty queue takes any frame, so a frame larger than the limit is still sendable. A frame from another thread
    /// than the receive loop's is taken only if it fits; the replies of a batch under way count as queued.
    /// </summary>
    private AppendResult Refusal(int frameLength)
    {
        if (_closed)
        {
            return AppendResult.Closed;
        }

        var queued = _queuedBytes + Volatile.Read(ref _replyBytes);
        return queued == 0 || queued + frameLength <= _limit ? AppendResult.Accepted : AppendResult.Full;
    }

    /// <summary>
    /// A reply is taken while the queue is under its limit, even if it ends over it: the receive loop delivers nothing
    /// more until the queue drained, so the overshoot is at most the replies to one frame, and a peer that pipelines but
    /// reads its replies is never refused. The batch's first reply takes the pending buffer under the lock; later ones
    /// see a close through <see cref="IsClosed"/>, and first move behind them any frame another thread deferred.
    /// </summary>
    private AppendResult ReplyRefusal()
    {
        if (!_holdingForReplies)
        {
            lock (_lock)
            {
                if (_closed)
                {
                    return AppendResult.Closed;
                }

                _holdingForReplies = true;
                _pendingEmptyBeforeReplies = _pending.WrittenCount == 0;
            }
        }
        else if (IsClosed)
        {
            return AppendResult.Closed;
        }
        else if (_framesDeferred)
        {
            lock (_lock)
            {
                MoveDeferredFrames();
            }
        }

        var queued = QueuedBytes;
        return queued == 0 || queued < _limit ? AppendResult.Accepted : AppendResult.Full;
    }

    /// <summary>Where a frame from another thread goes: the pending buffer, or aside while replies hold it.</summary>
    private PooledBufferWriter OutputForOthers() =>
        _holdingForReplies ? (_deferred ??= new DeferredFrames(_pool, _segmentSize, _format)).Output : _pending;

    private int Serialize<TState>(PooledBufferWriter output, TState state, FrameWriter<TState> write)
    {
        var mark = output.Mark();
        try
        {
            // Started in the pending buffer's room, which holds many small frames: a reply's first field would
            // otherwise ask for it through the interface, once per frame.
            var writer = new PacketWriter(output, output.GetSpan(_format.HeaderLength));
            var reservation = writer.ReserveLength(_format);
            write(ref writer, state);
            writer.BackfillLength(reservation);
            writer.Flush();
        }
        catch
        {
            output.Rollback(mark);
            throw;
        }

        return (int)(output.WrittenCount - mark.Length);
    }

    /// <summary>
    /// Records the reply as the lent bytes it repeats, when the body is one run of the lent array and the header in front
    /// of it is the one this queue would write: the wire bytes are then the received frame's own.
    /// </summary>
    private bool TryBorrow(in ReadOnlySequence<byte> body, int frameLength)
    {
        var lender = _lender;
        if (lender is null
            || !ArrayRun.TryGet(body, out var array, out var bodyStart)
            || !ReferenceEquals(array, lender))
        {
            return false;
        }

        var headerLength = _format.HeaderLength;
        var start = bodyStart - headerLength;
        if (start < 0)
        {
            return false;
        }

        // Compared as the announced value rather than as written bytes: a stack copy of the header would cost every
        // reply a stack-overrun check.
        if (_format.ReadAnnounced(lender.AsSpan(start, headerLength)) != _format.Announced(frameLength - headerLength))
        {
            return false;
        }

        _pending.Lend(lender, start, frameLength);
        _borrowed = true;
        return true;
    }

    /// <summary>Counts a frame from another thread, under the lock.</summary>
    private AppendResult Accept(int frameLength)
    {
        _queuedBytes += frameLength;
        var queued = _queuedBytes + Volatile.Read(ref _replyBytes);
        if (queued > _peakQueuedBytes)
        {
            Volatile.Write(ref _peakQueuedBytes, queued);
        }

        _queuedFrames++;
        // Per frame, so only when something listens: the JIT inlines the add into this path, a NativeAOT build calls it.
        if (_metrics.SendQueueBytes.Enabled)
        {
            _metrics.SendQueueBytes.Add(frameLength);
        }

        if (_holdingForReplies)
        {
            _deferred!.Added();
            _framesDeferred = true;
            return AppendResult.Accepted;
        }

        _pendingFrames++;
        _unacknowledged.Accepted(frameLength);
        return _pending.WrittenCount == frameLength ? AppendResult.AcceptedIntoEmpty : AppendResult.Accepted;
    }

    /// <summary>Counts a reply, on the receive loop's thread while it holds the pending buffer.</summary>
    private AppendResult AcceptReply(int frameLength)
    {
        _pendingFrames++;
        _replyFrames++;
        _unacknowledged.Accepted(frameLength);
        Volatile.Write(ref _replyBytes, _replyBytes + frameLength);
        _peakWithReplies = Math.Max(_peakWithReplies, QueuedBytes);
        return AppendResult.Accepted;
    }

    /// <summary>Moves the frames deferred while replies held the pending buffer behind the replies so far, under the lock.</summary>
    private void MoveDeferredFrames()
    {
        if (_deferred is { Count: > 0 } deferred)
        {
            _pendingFrames += deferred.MoveBehind(_pending, _unacknowledged);
        }

        _framesDeferred = false;
    }
}
