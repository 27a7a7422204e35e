using System.Buffers;
using System.Net;
using Berth.Framing;
using Berth.Tcp.Receive;
using Berth.Tcp.Send;
using Berth.Tcp.Transport;
using Microsoft.Extensions.Logging;

namespace Berth.Tcp;

/// <summary>
/// One framed TCP connection, the same type on the server and the client side. Sends are accepted from any thread into
/// a queue bounded in bytes; one receive loop delivers frames to the <see cref="ConnectionHandler"/> and one send loop
/// writes the queue out. Every frame a send accepted is written, or counted in <see cref="DisconnectInfo.UnsentFrames"/>.
/// </summary>
public sealed class Connection : IConnectionLifetime
{
    private static long s_lastId;
    private readonly IConnectionTransport _transport;
    private readonly ConnectionHandler _handler;
    private readonly Action<Connection, DisconnectInfo> _onClosed;
    private readonly SendQueue _queue;
    private readonly SendWakeup _sendWakeup = new();
    private readonly TaskCompletionSource<DisconnectInfo> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _closeClaimed;
    private volatile bool _closing;
    private bool _flushOnClose;
    private DisconnectReason _reason;
    private Exception? _error;
    private int _runningLoops;
    private int _lingerArmed;

    internal Connection(
        long id,
        IConnectionTransport transport,
        ConnectionOptions options,
        ConnectionHandler handler,
        ILogger logger,
        Action<Connection, DisconnectInfo> onClosed)
    {
        Id = id;
        _transport = transport;
        Options = options;
        _handler = handler;
        Logger = logger;
        _onClosed = onClosed;
        Metrics = TcpMetrics.For(options.MeterFactory);
        _queue = new SendQueue(options.Format, options.SendQueueLimit, options.BufferPool, options.SendSegmentSize, Metrics);
        LocalEndPoint = transport.LocalEndPoint;
        RemoteEndPoint = transport.RemoteEndPoint;
    }

    /// <summary>A number unique among the connections of this process.</summary>
    public long Id { get; }

    /// <summary>This side's address.</summary>
    public EndPoint? LocalEndPoint { get; }

    /// <summary>The peer's address.</summary>
    public EndPoint? RemoteEndPoint { get; }

    /// <summary>True until the connection starts closing; sends are refused from then on.</summary>
    public bool IsConnected => !_closing;

    /// <summary>Bytes accepted for sending and not yet written.</summary>
    public long QueuedBytes => _queue.QueuedBytes;

    /// <summary>The most bytes the send queue ever held.</summary>
    internal long PeakQueuedBytes => _queue.PeakQueuedBytes;

    /// <summary>Application data attached to the connection.</summary>
    public object? Tag { get; set; }

    /// <summary>Completes once the connection has closed and released its buffers, with how it ended.</summary>
    public Task<DisconnectInfo> Closed => _closed.Task;

    internal ConnectionOptions Options { get; }

    internal ILogger Logger { get; }

    internal TcpMetrics Metrics { get; }

    /// <summary>The byte stream, for a stop that has waited long enough and aborts it outright.</summary>
    internal IConnectionTransport Transport => _transport;

    /// <summary>When this connection last received, sent, or began a frame, for the <see cref="TimeoutSweeper"/>.</summary>
    internal ConnectionActivity Activity { get; } = new();

    internal bool IsClosing => _closing;

    bool IConnectionLifetime.IsClosing => _closing;

    bool IConnectionLifetime.FlushOnClose => _flushOnClose;

    bool IConnectionLifetime.Close(DisconnectReason reason, Exception? error, bool flush) => Close(reason, error, flush);

    void IConnectionLifetime.CloseForBadInput(DisconnectReason reason) => CloseForBadInput(reason);

    void IConnectionLifetime.CloseForHandlerFailure(Exception error) => CloseForHandlerFailure(error);

    void IConnectionLifetime.AbortAfterLinger() => AbortAfterLinger();

    void IConnectionLifetime.LoopEnded() => LoopEnded();

    /// <summary>
    /// Queues a frame carrying <paramref name="body"/>; false when the queue is full or the connection closing. From
    /// inside <see cref="ConnectionHandler.OnFrame"/> the frame is taken whenever the queue is under its limit, even if
    /// it ends over it, because the receive loop delivers no further frame until the queue drained.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body is shorter than <see cref="LengthFieldFormat.MinBodyLength"/> or longer than
    /// <see cref="LengthFieldFormat.MaxBodyLength"/> of <see cref="ConnectionOptions.Format"/>; nothing is queued.
    /// </exception>
    public bool TrySend(ReadOnlySpan<byte> body) => Accepted(_queue.TryAppend(body, IsDispatching));

    /// <summary>Queues a frame carrying <paramref name="body"/>, which may span segments; otherwise as <see cref="TrySend(ReadOnlySpan{byte})"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body is shorter than <see cref="LengthFieldFormat.MinBodyLength"/> or longer than
    /// <see cref="LengthFieldFormat.MaxBodyLength"/> of <see cref="ConnectionOptions.Format"/>; nothing is queued.
    /// </exception>
    public bool TrySend(in ReadOnlySequence<byte> body) => Accepted(_queue.TryAppend(body, IsDispatching));

    /// <summary>
    /// Queues a frame whose body <paramref name="write"/> serializes straight into pooled send memory; the length field
    /// is filled in afterwards. False when the queue is full or the connection closing. The queue is locked while
    /// <paramref name="write"/> runs, so keep it short and do not send on this connection from inside it; if it
    /// throws, nothing is queued.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body <paramref name="write"/> wrote is shorter than <see cref="LengthFieldFormat.MinBodyLength"/> or longer
    /// than <see cref="LengthFieldFormat.MaxBodyLength"/> of <see cref="ConnectionOptions.Format"/>; nothing is queued.
    /// </exception>
    public bool TrySend<TState>(TState state, FrameWriter<TState> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        return Accepted(_queue.TryAppend(state, write, IsDispatching));
    }

    /// <summary>
    /// Queues a frame carrying <paramref name="body"/>. When the queue is full it waits (<see cref="FullQueuePolicy.Wait"/>),
    /// throws <see cref="SendQueueFullException"/> (<see cref="FullQueuePolicy.Reject"/>) or closes the connection and
    /// throws <see cref="ConnectionClosedException"/> (<see cref="FullQueuePolicy.CloseAsSlowConsumer"/>).
    /// Completes when the frame is queued, not when it is written. From inside <see cref="ConnectionHandler.OnFrame"/>
    /// the queue counts as full only once it is over its limit, as for <see cref="TrySend(ReadOnlySpan{byte})"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// Thrown by the call, not the returned task: the body is shorter than <see cref="LengthFieldFormat.MinBodyLength"/>
    /// or longer than <see cref="LengthFieldFormat.MaxBodyLength"/> of <see cref="ConnectionOptions.Format"/>.
    /// </exception>
    public ValueTask SendAsync(ReadOnlyMemory<byte> body, CancellationToken cancellationToken = default)
    {
        var result = _queue.TryAppend(body.Span, IsDispatching);
        return result is AppendResult.Full && Options.FullQueuePolicy == FullQueuePolicy.Wait
            ? WaitAndSendAsync(body, cancellationToken)
            : Completion(result);
    }

    /// <summary>As <see cref="SendAsync(ReadOnlyMemory{byte}, CancellationToken)"/>, serializing the body with <paramref name="write"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The body <paramref name="write"/> wrote is shorter than <see cref="LengthFieldFormat.MinBodyLength"/> or longer
    /// than <see cref="LengthFieldFormat.MaxBodyLength"/> of <see cref="ConnectionOptions.Format"/>; nothing is queued.
    /// </exception>
    public ValueTask SendAsync<TState>(TState state, FrameWriter<TState> write, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(write);
        var result = _queue.TryAppend(state, write, IsDispatching);
        return result is AppendResult.Full && Options.FullQueuePolicy == FullQueuePolicy.Wait
            ? WaitAndSendAsync(state, write, cancellationToken)
            : Completion(result);
    }

    /// <summary>Stops accepting sends, writes what is queued, then closes with <see cref="DisconnectReason.ClosedByApplication"/>.</summary>
    public void Close() => Close(DisconnectReason.ClosedByApplication, null, flush: true);

    /// <summary>Closes at once; queued frames are reported unsent.</summary>
    public void Abort() => Close(DisconnectReason.ClosedByApplication, null, flush: false);

    /// <summary>
    /// Starts closing for <paramref name="reason"/> unless the connection is already closing (the first reason wins);
    /// returns whether this call started it. With <paramref name="flush"/>, queued frames are written before the send
    /// side shuts down.
    /// </summary>
    internal bool Close(DisconnectReason reason, Exception? error, bool flush)
    {
        if (Interlocked.Exchange(ref _closeClaimed, 1) != 0)
        {
            return false;
        }

        _reason = reason;
        _error = error;
        _flushOnClose = flush;
        _queue.Close();
        _closing = true;
        if (!flush)
        {
            _transport.Abort();
        }

        _sendWakeup.Wake();
        _queue.Drained.Set();
        return true;
    }

    /// <summary>
    /// Closes for bad input: no further frame is delivered, but the replies already queued for the valid frames before
    /// it are written first. The whole close, flush included, is cut off after <see cref="ConnectionOptions.LingerTimeout"/>.
    /// </summary>
    internal void CloseForBadInput(DisconnectReason reason)
    {
        if (Close(reason, null, flush: true))
        {
            TcpLog.ClosedByPolicy(Logger, Id, reason);
            AbortAfterLinger();
        }
    }

    /// <summary>
    /// Aborts the transport once <see cref="ConnectionOptions.LingerTimeout"/> has passed, unless the connection closed
    /// before; only the first call arms the timer.
    /// </summary>
    internal void AbortAfterLinger()
    {
        if (Interlocked.Exchange(ref _lingerArmed, 1) != 0)
        {
            return;
        }

        var linger = new CancellationTokenSource(Options.LingerTimeout);
        linger.Token.UnsafeRegister(static state => ((Connection)state!)._transport.Abort(), this);
        Closed.ContinueWith(static (_, state) => ((CancellationTokenSource)state!).Dispose(), linger, TaskScheduler.Default);
    }

    /// <summary>The handler threw: the failure is logged and the connection aborted.</summary>
    internal void CloseForHandlerFailure(Exception error)
    {
        TcpLog.HandlerFailed(Logger, Id, error);
        Close(DisconnectReason.HandlerFailed, error, flush: false);
    }

    internal static long NextId() => Interlocked.Increment(ref s_lastId);

    /// <summary>
    /// Runs <see cref="ConnectionHandler.OnConnected"/>, then starts the receive and send loops, each given only what
    /// it works with. Both start on the thread pool and from then on run on whichever thread resumes them.
    /// </summary>
    /// <remarks>
    /// The send loop has no thread of its own. It waits on <see cref="SendWakeup"/>, whose signal runs it inline on
    /// the thread that sets it, and a send that has to wait for the socket resumes it on the thread that completes
    /// that send. So it runs: after a batch of frames, on the receive loop's thread, which with the epoll transport
    /// (<see cref="HandlerScheduling.Inline"/>) is the connection's event-loop thread and with the runtime's socket
    /// engine or TLS a thread-pool thread completing the receive; for a send from outside the handler that finds the
    /// loop waiting, on the sending thread, which writes the batch itself (one syscall when the socket has room)
    /// before its send call returns; for a send that found the socket full, on the epoll loop thread or the
    /// thread-pool thread that completes it; and for a close, on the closing thread. This is what lets a reply leave
    /// without a thread hop; a frame queued while the loop is busy joins its next batch.
    /// </remarks>
    internal void Start()
    {
        Metrics.OpenedConnections.Add(1);
        Metrics.ActiveConnections.Add(1);
        TcpLog.Opened(Logger, Id, RemoteEndPoint);
        _runningLoops = 2;
        try
        {
            _handler.OnConnected(this);
        }
        catch (Exception e)
        {
            CloseForHandlerFailure(e);
        }

        var delivery = new FrameDelivery(
            this, _handler, new FrameDecoder(Options.Format), _queue, _sendWakeup, Activity, Metrics, this);
        _ = Task.Run(new ReceiveLoop(_transport, Options, delivery, _queue, Activity, Metrics, this).RunAsync);
        _ = Task.Run(new SendLoop(_transport, _queue, _sendWakeup, Activity, this).RunAsync);
    }

    /// <summary>Ends a connection that never started its loops (refused by the limit, failed handshake).</summary>
    internal void Refuse(DisconnectReason reason, Exception? error)
    {
        Metrics.OpenedConnections.Add(1);
        Metrics.ActiveConnections.Add(1);
        _runningLoops = 1;
        Close(reason, error, flush: false);
        LoopEnded();
    }

    /// <summary>
    /// Lets go of the record of where sent frames end once the peer has acknowledged everything written, so a quiet
    /// connection holds no array for it. Asks the socket only when everything queued was written since the last time.
    /// </summary>
    internal void ForgetAcknowledgedFrames()
    {
        if (_queue.AwaitsAcknowledgement)
        {
            _queue.ForgetAcknowledged(_transport.Acknowledged);
        }
    }

    /// <summary>Called by each loop as it exits; the last one releases everything and reports the disconnect.</summary>
    internal void LoopEnded()
    {
        if (Interlocked.Decrement(ref _runningLoops) != 0)
        {
            return;
        }

        var (unsentFrames, unsentBytes) = _queue.Release(_transport.AcknowledgedAtAbort);
        _transport.Dispose();
        var info = new DisconnectInfo(_reason, unsentFrames, unsentBytes, _error);
        Metrics.ActiveConnections.Add(-1);
        Metrics.Disconnected(_reason);
        TcpLog.Closed(Logger, Id, _reason, unsentFrames);
        try
        {
            _handler.OnDisconnected(this, info);
        }
        catch (Exception e)
        {
            TcpLog.DisconnectHandlerFailed(Logger, Id, e);
        }

        _onClosed(this, info);
        _closed.TrySetResult(info);
    }

    private bool Accepted(AppendResult result)
    {
        switch (result)
        {
            case AppendResult.AcceptedIntoEmpty:
                _sendWakeup.FrameQueued();
                return true;
            case AppendResult.Accepted:
                return true;
            case AppendResult.Full when Options.FullQueuePolicy == FullQueuePolicy.CloseAsSlowConsumer:
                TcpLog.ClosedByPolicy(Logger, Id, DisconnectReason.SlowConsumer);
                Close(DisconnectReason.SlowConsumer, null, flush: false);
                return false;
            default:
                return false;
        }
    }

    private bool IsDispatching => _sendWakeup.IsDispatching;

    private ValueTask Completion(AppendResult result)
    {
        if (Accepted(result))
        {
            return ValueTask.CompletedTask;
        }

        return ValueTask.FromException(result is AppendResult.Full && Options.FullQueuePolicy == FullQueuePolicy.Reject
            ? new SendQueueFullException()
            : new ConnectionClosedException());
    }

    private async ValueTask WaitAndSendAsync(ReadOnlyMemory<byte> body, CancellationToken cancellationToken)
    {
        AppendResult result;
        do
        {
            await _queue.RoomAvailable().WaitAsync(cancellationToken).ConfigureAwait(false);
            result = _queue.TryAppend(body.Span, IsDispatching);
        }
        while (result is AppendResult.Full);

        await Completion(result).ConfigureAwait(false);
    }

    private async ValueTask WaitAndSendAsync<TState>(TState state, FrameWriter<TState> write, CancellationToken cancellationToken)
    {
        AppendResult result;
        do
        {
            await _queue.RoomAvailable().WaitAsync(cancellationToken).ConfigureAwait(false);
            result = _queue.TryAppend(state, write, IsDispatching);
        }
        while (result is AppendResult.Full);

        await Completion(result).ConfigureAwait(false);
    }
}
