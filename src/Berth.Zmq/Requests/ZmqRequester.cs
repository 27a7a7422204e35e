using System.Buffers;
using Berth.Connections;
using Berth.Messages;
using Berth.Messages.Requests;

namespace Berth.Zmq;

/// <summary>
/// Request/response over a DEALER socket, with the same envelope, bounds and answers as on a Berth TCP connection: a
/// request goes out with the next correlation id of this requester (never reused), and the returned task completes
/// with its reply, in whatever order replies arrive. Each failure has its own answer, always through the task:
/// <see cref="TimeoutException"/> after the timeout, <see cref="OperationCanceledException"/> on cancellation (local:
/// the peer is not told, and its reply, if it comes, is discarded and counted in <see cref="LateReplies"/>),
/// <see cref="RequestRejectedException"/> for the peer's error reply, <see cref="RequestLimitReachedException"/> at
/// <see cref="RequestOptions.MaxOutstanding"/>, <see cref="SendQueueFullException"/> when the socket's high-water mark
/// is reached (a request never waits for room), <see cref="MessageFormatException"/> for a reply that is not a
/// <c>TReply</c>, <see cref="ObjectDisposedException"/> once the requester or its socket is disposed, and the
/// <see cref="ZmqException"/> that ended reading (the context shut down) for every request then waiting, with
/// <see cref="ObjectDisposedException"/> for any later one.
/// </summary>
/// <remarks>
/// The requester owns the socket until it is disposed: any thread may call <see cref="RequestAsync{TRequest, TReply}(in TRequest, CancellationToken)"/>
/// at any time, and the socket sees one call at a time. Replies are read on the context's reactor and by the
/// requesting threads; the code after an await runs on the thread that read the reply, so it must not block.
/// Frames that are not replies are dropped and counted in the socket's <see cref="ZmqSocket.DroppedMessages"/>.
/// </remarks>
public sealed class ZmqRequester : IDisposable
{
    private static readonly TimeSpan SweepPeriod = TimeSpan.FromMilliseconds(20);

    private readonly ZmqSocket _socket;
    private readonly TimeSpan _timeout;
    private readonly int _maxOutstanding;
    private readonly Lock _socketLock = new();
    private readonly Lock _tableLock = new();
    private readonly Lock _sweepLock = new();
    private readonly Dictionary<long, ZmqPendingRequest> _pending = [];
    private readonly List<ZmqPendingRequest> _expired = [];
    private readonly ArrayBufferWriter<byte> _frame = new();
    private readonly ZmqMessage _incoming = new();
    private readonly ZmqReadiness _readiness;
    private readonly Timer _sweeper;
    private long _lastIssued;
    private long _lateReplies;
    private bool _disposed;

    /// <summary>
    /// Takes over <paramref name="dealer"/> for requests. Unless its <see cref="ZmqSocket.MaxMessageSize"/> was set, it
    /// becomes the envelope plus <see cref="MessageBounds.DefaultMaxEncodedSize"/>, so libzmq refuses a larger reply before it is read.
    /// </summary>
    /// <param name="dealer">A DEALER socket, connected or bound.</param>
    /// <param name="options">The timeout and the outstanding bound; the defaults of <see cref="RequestOptions"/> when null.</param>
    /// <exception cref="ArgumentException"><paramref name="dealer"/> is not a DEALER.</exception>
    public ZmqRequester(ZmqSocket dealer, RequestOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(dealer);
        if (dealer.Type != ZmqSocketType.Dealer)
        {
            throw new ArgumentException($"a requester needs a DEALER socket, not {dealer.Type}", nameof(dealer));
        }

        options ??= new RequestOptions();
        if (options.Timeout != Timeout.InfiniteTimeSpan)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(options.Timeout, TimeSpan.Zero, nameof(options));
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(options.MaxOutstanding, 1, nameof(options));
        _socket = dealer;
        _timeout = options.Timeout;
        _maxOutstanding = options.MaxOutstanding;
        if (dealer.MaxMessageSize < 0)
        {
            dealer.MaxMessageSize = RequestEnvelope.HeaderLength + (long)MessageBounds.DefaultMaxEncodedSize;
        }

        _readiness = dealer.AttachReadiness();
        _sweeper = new Timer(static state => ((ZmqRequester)state!).Sweep(), this, SweepPeriod, SweepPeriod);
        _ = ReceiveRepliesAsync();
    }

    /// <summary>Replies that came after their request timed out or was cancelled, discarded.</summary>
    public long LateReplies => Volatile.Read(ref _lateReplies);

    /// <summary>Requests awaiting their reply now.</summary>
    public int Outstanding
    {
        get
        {
            lock (_tableLock)
            {
                return _pending.Count;
            }
        }
    }

    /// <summary>Sends <paramref name="request"/> and awaits its reply, within the requester's timeout.</summary>
    /// <param name="request">The request.</param>
    /// <param name="cancellationToken">Fails the wait (only here: the peer is not told).</param>
    /// <returns>The reply.</returns>
    public ValueTask<TReply> RequestAsync<TRequest, TReply>(in TRequest request, CancellationToken cancellationToken = default)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply> =>
        RequestAsync<TRequest, TReply>(request, _timeout, cancellationToken);

    /// <summary>Sends <paramref name="request"/> and awaits its reply, within <paramref name="timeout"/>.</summary>
    /// <param name="request">The request.</param>
    /// <param name="timeout">How long to wait for the reply, or <see cref="Timeout.InfiniteTimeSpan"/>.</param>
    /// <param name="cancellationToken">Fails the wait (only here: the peer is not told).</param>
    /// <returns>The reply.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is neither positive nor infinite.</exception>
    public ValueTask<TReply> RequestAsync<TRequest, TReply>(in TRequest request, TimeSpan timeout, CancellationToken cancellationToken)
        where TRequest : IMessage<TRequest>
        where TReply : IMessage<TReply>
    {
        if (timeout != Timeout.InfiniteTimeSpan)
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<TReply>(cancellationToken);
        }

        var pending = ZmqPendingReply<TReply>.Rent();
        var deadline = timeout == Timeout.InfiniteTimeSpan ? long.MaxValue : Environment.TickCount64 + (long)Math.Ceiling(timeout.TotalMilliseconds);
        if (TryAdd(pending, deadline) is { } refusal)
        {
            pending.Discard();
            return ValueTask.FromException<TReply>(refusal);
        }

        var reply = pending.Reply;
        var correlation = pending.Correlation;
        pending.WatchCancellation(cancellationToken);
        Exception? unsent = null;
        lock (_socketLock)
        {
            try
            {
                if (!_socket.TrySend(ZmqMessageFrames.Enveloped(_frame, EnvelopeKind.Request, correlation, request)))
                {
                    unsent = new SendQueueFullException("The DEALER socket is at its high-water mark; the request was not sent.");
                }
                else
                {
                    // A send may take in the socket's pending commands, spending the edge the reactor waits for, so
                    // replies already here are read now.
                    DrainReplies();
                }
            }
            catch (Exception e)
            {
                unsent = e;
            }
        }

        if (unsent is not null && TryRemove(correlation) == pending)
        {
            pending.Fail(unsent);
        }

        return reply;
    }

    /// <summary>Fails every request still waiting with <see cref="ObjectDisposedException"/>; the socket stays open, its owner disposes it.</summary>
    public void Dispose()
    {
        if (!FailAll(new ObjectDisposedException(nameof(ZmqRequester), "The requester was disposed before the reply came.")))
        {
            return;
        }

        _readiness.Fail(new ObjectDisposedException(nameof(ZmqRequester)));
        lock (_socketLock)
        {
            _incoming.Dispose();
        }
    }

    /// <summary>Ends the requester: every request waiting fails with <paramref name="error"/>, later ones are refused; false when already ended.</summary>
    private bool FailAll(Exception error)
    {
        ZmqPendingRequest[] waiting;
        lock (_tableLock)
        {
            if (_disposed)
            {
                return false;
            }

            _disposed = true;
            waiting = [.. _pending.Values];
            _pending.Clear();
        }

        _sweeper.Dispose();
        foreach (var request in waiting)
        {
            request.Fail(error);
        }

        return true;
    }

    internal ZmqPendingRequest? TryRemove(long correlation)
    {
        lock (_tableLock)
        {
            return _pending.Remove(correlation, out var request) ? request : null;
        }
    }

    private Exception? TryAdd(ZmqPendingRequest request, long deadline)
    {
        lock (_tableLock)
        {
            if (_disposed)
            {
                return new ObjectDisposedException(nameof(ZmqRequester));
            }

            if (_pending.Count >= _maxOutstanding)
            {
                return new RequestLimitReachedException($"The requester already awaits {_maxOutstanding} replies, its bound.");
            }

            request.Correlation = ++_lastIssued;
            request.Deadline = deadline;
            request.Owner = this;
            _pending.Add(request.Correlation, request);
            return null;
        }
    }

    private async Task ReceiveRepliesAsync()
    {
        try
        {
            while (!Volatile.Read(ref _disposed))
            {
                // Armed before reading, so a reply that lands after the last read still wakes the wait.
                var token = _readiness.Arm();
                lock (_socketLock)
                {
                    if (_disposed)
                    {
                        return;
                    }

                    DrainReplies();
                }

                await new ValueTask(_readiness, token).ConfigureAwait(false);
            }
        }
        catch (Exception e) when (e is ObjectDisposedException or ZmqException)
        {
            // The requester, its socket or its context ended: nothing more will be read, so no request may wait on.
            FailAll(e);
        }
    }

    /// <summary>Reads every waiting frame; called holding the socket lock.</summary>
    private void DrainReplies()
    {
        while (_socket.TryReceive(_incoming))
        {
            if (_incoming.More)
            {
                while (_incoming.More)
                {
                    _socket.Receive(_incoming);
                }

                _socket.CountDropped();
                continue;
            }

            Deliver(_incoming.Data);
        }
    }

    private void Deliver(ReadOnlySpan<byte> frame)
    {
        if (!RequestEnvelope.TryRead(frame, out var header) || header.Kind == EnvelopeKind.Request)
        {
            _socket.CountDropped();
            return;
        }

        var pending = TryRemove(header.Correlation);
        if (pending is null)
        {
            // Ids are never reused: one issued before and no longer awaited answers a request that timed out or was
            // cancelled; any other answers nothing this requester sent.
            if (header.Correlation > 0 && header.Correlation <= Volatile.Read(ref _lastIssued))
            {
                Interlocked.Increment(ref _lateReplies);
            }
            else
            {
                _socket.CountDropped();
            }

            return;
        }

        var body = frame[RequestEnvelope.HeaderLength..];
        if (header.Kind == EnvelopeKind.Error)
        {
            pending.Fail(new RequestRejectedException(header.Tag, ZmqMessageFrames.ReadErrorText(body)));
        }
        else
        {
            pending.Complete(header.Tag, body, _socket);
        }
    }

    private void Sweep()
    {
        // A tick that finds the previous one still sweeping skips; the next one catches up.
        if (!_sweepLock.TryEnter())
        {
            return;
        }

        try
        {
            var now = Environment.TickCount64;
            lock (_tableLock)
            {
                foreach (var (_, request) in _pending)
                {
                    if (request.Deadline <= now)
                    {
                        _expired.Add(request);
                    }
                }

                foreach (var request in _expired)
                {
                    _pending.Remove(request.Correlation);
                }
            }

            foreach (var request in _expired)
            {
                request.Fail(new TimeoutException($"No reply to request {request.Correlation} before its timeout."));
            }

            _expired.Clear();
        }
        finally
        {
            _sweepLock.Exit();
        }
    }
}
