using Berth.Buffers;
using Berth.Framing;
using Berth.Connections.Receive;
using Berth.Connections.Send;
using Berth.Connections.Transport;
using Berth.Messages;
using Microsoft.Extensions.Logging;

namespace Berth.Connections;

/// <summary>
/// How one connection lives and ends: it starts the receive and send loops, owns the close (the first reason wins),
/// the abort of the transport and the linger that bounds a flushing close, and once both loops ended releases every
/// buffer and reports the disconnect. The server, the client, the <see cref="TimeoutSweeper"/> and the loops close a
/// connection only through it, and nothing else aborts the transport.
/// </summary>
internal sealed class ConnectionLifetime
{
    private readonly Connection _connection;
    private readonly ConnectionTransport _transport;
    private readonly SendQueue _queue;
    private readonly SendWakeup _wakeup;
    private readonly ConnectionHandler _handler;
    private readonly Action<Connection, DisconnectInfo> _onClosed;
    private readonly TaskCompletionSource<DisconnectInfo> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _closeClaimed;
    private volatile bool _closing;
    private bool _flushOnClose;
    private DisconnectReason _reason;
    private Exception? _error;
    private int _runningLoops;
    private int _lingerArmed;

    public ConnectionLifetime(
        Connection connection,
        ConnectionTransport transport,
        SendQueue queue,
        SendWakeup wakeup,
        ConnectionHandler handler,
        Action<Connection, DisconnectInfo> onClosed)
    {
        _connection = connection;
        _transport = transport;
        _queue = queue;
        _wakeup = wakeup;
        _handler = handler;
        _onClosed = onClosed;
    }

    /// <summary>When this connection last received, sent, or began a frame, for the <see cref="TimeoutSweeper"/>.</summary>
    public ConnectionActivity Activity { get; } = new();

    /// <summary>True once a close started; sends are refused from then on.</summary>
    public bool IsClosing => _closing;

    /// <summary>The peer process's credentials, from the transport's socket (see <see cref="Connection.TryGetPeerCredentials"/>).</summary>
    public bool TryGetPeerCredentials(out Unix.UnixPeerCredentials credentials) => _transport.TryGetPeerCredentials(out credentials);

    /// <summary>The event loop whose thread runs this connection's handler, or null off the epoll transport.</summary>
    public Transport.Epoll.EpollLoop? Loop => (_transport as Transport.Epoll.EpollTransport)?.Loop;

    /// <summary>No frame is partly received and nothing is queued to send: closing now cuts no frame in two.</summary>
    public bool IsBetweenFrames => Activity.PartialFrameSinceTicks == 0 && _queue.QueuedBytes == 0;

    /// <summary>Whether the close under way writes what is queued before shutting the send side down.</summary>
    public bool FlushOnClose => _flushOnClose;

    /// <summary>Completes once the connection has closed and released its buffers, with how it ended.</summary>
    public Task<DisconnectInfo> Closed => _closed.Task;

    private long Id => _connection.Id;

    private ILogger Logger => _connection.Logger;

    private ConnectionOptions Options => _connection.Options;

    /// <summary>
    /// Starts closing for <paramref name="reason"/> unless the connection is already closing (the first reason wins);
    /// returns whether this call started it. With <paramref name="flush"/>, queued frames are written before the send
    /// side shuts down; without it the transport is aborted at once.
    /// </summary>
    public bool Close(DisconnectReason reason, Exception? error, bool flush)
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
        _connection.EndRequests();
        if (!flush)
        {
            _transport.Abort();
        }

        _wakeup.Wake();
        _queue.Drained.Set();
        return true;
    }

    /// <summary>Closes at once for a limit or policy (idle, slow consumer), and logs why.</summary>
    public void CloseByPolicy(DisconnectReason reason)
    {
        ConnectionLog.ClosedByPolicy(Logger, Id, reason);
        Close(reason, null, flush: false);
    }

    /// <summary>
    /// Closes for bad input: no further frame is delivered, but the replies already queued for the valid frames before
    /// it are written first. The whole close, flush included, is cut off after <see cref="ConnectionOptions.LingerTimeout"/>.
    /// </summary>
    public void CloseForBadInput(DisconnectReason reason)
    {
        if (Close(reason, null, flush: true))
        {
            ConnectionLog.ClosedByPolicy(Logger, Id, reason);
            AbortAfterLinger();
        }
    }

    /// <summary>
    /// A typed message body broke its contract: closed as for <see cref="CloseForBadInput"/>, logging the field, offset
    /// and fault, with the exception as the <see cref="DisconnectInfo.Error"/>.
    /// </summary>
    public void CloseForMalformedMessage(MessageFormatException error)
    {
        if (Close(DisconnectReason.MalformedMessage, error, flush: true))
        {
            ConnectionLog.MalformedMessage(Logger, Id, error.Field, error.Offset, error.Fault);
            AbortAfterLinger();
        }
    }

    /// <summary>The handler threw: the failure is logged and the connection aborted.</summary>
    public void CloseForHandlerFailure(Exception error)
    {
        ConnectionLog.HandlerFailed(Logger, Id, error);
        Close(DisconnectReason.HandlerFailed, error, flush: false);
    }

    /// <summary>
    /// Aborts the transport once <see cref="ConnectionOptions.LingerTimeout"/> has passed, unless the connection closed
    /// before; only the first call arms the timer.
    /// </summary>
    public void AbortAfterLinger()
    {
        if (Interlocked.Exchange(ref _lingerArmed, 1) != 0)
        {
            return;
        }

        var linger = new CancellationTokenSource(Options.LingerTimeout);
        linger.Token.UnsafeRegister(static state => ((ConnectionLifetime)state!)._transport.Abort(), this);
        Closed.ContinueWith(static (_, state) => ((CancellationTokenSource)state!).Dispose(), linger, TaskScheduler.Default);
    }

    /// <summary>For a stop that waited long enough for a flushing close: aborts the transport under it now.</summary>
    public void AbortClosing() => _transport.Abort();

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
    public void Start()
    {
        Opened();
        ConnectionLog.Opened(Logger, Id, _connection.RemoteEndPoint);
        _runningLoops = 2;
        try
        {
            _handler.OnConnected(_connection);
        }
        catch (Exception e)
        {
            CloseForHandlerFailure(e);
        }

        var format = Options.Format;
        var largestFrame = format.HeaderLength + format.MaxBodyLength;
        var ring = new RingBuffer(Options.ReceiveBufferSize, Math.Max(Options.ReceiveBufferSize, largestFrame), Options.BufferPool);
        var gate = new SendGate(_queue, _wakeup, _connection.HandlerSlots);
        var delivery = new FrameDelivery(_connection, _handler, new FrameDecoder(format), gate, _connection.Metrics, this);
        _ = Task.Run(new ReceiveLoop(_transport, ring, delivery, gate, this).RunAsync);
        _ = Task.Run(new SendLoop(_transport, _queue, _wakeup, this).RunAsync);
    }

    /// <summary>Ends a connection that never started its loops (refused by the limit, failed handshake).</summary>
    public void Refuse(DisconnectReason reason, Exception? error)
    {
        Opened();
        _runningLoops = 1;
        Close(reason, error, flush: false);
        LoopEnded();
    }

    /// <summary>
    /// Lets go of the record of where sent frames end once the peer has acknowledged everything written, so a quiet
    /// connection holds no array for it. Asks the socket only when everything queued was written and no frame was
    /// queued since the previous sweep, so a busy connection costs no system call here.
    /// </summary>
    public void ForgetAcknowledgedFrames()
    {
        if (_queue.QuietAndAwaitingAcknowledgement())
        {
            _queue.ForgetAcknowledged(_transport.Acknowledged);
        }
    }

    /// <summary>Called by each loop as it exits; the last one releases everything and reports the disconnect.</summary>
    public void LoopEnded()
    {
        if (Interlocked.Decrement(ref _runningLoops) != 0)
        {
            return;
        }

        var (unsentFrames, unsentBytes) = _queue.Release(_transport.AcknowledgedAtAbort);
        _transport.Dispose();
        var info = new DisconnectInfo(_reason, unsentFrames, unsentBytes, _error);
        var metrics = _connection.Metrics;
        metrics.ActiveConnections.Add(-1);
        metrics.Disconnected(_reason);
        ConnectionLog.Closed(Logger, Id, _reason, unsentFrames);
        try
        {
            _handler.OnDisconnected(_connection, info);
        }
        catch (Exception e)
        {
            ConnectionLog.DisconnectHandlerFailed(Logger, Id, e);
        }

        _onClosed(_connection, info);
        _closed.TrySetResult(info);
    }

    private void Opened()
    {
        _connection.Metrics.OpenedConnections.Add(1);
        _connection.Metrics.ActiveConnections.Add(1);
    }
}
