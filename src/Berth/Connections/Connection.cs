using System.Buffers;
using System.Net;
using Berth.Framing;
using Berth.Connections.Send;
using Berth.Connections.Transport;
using Berth.Messages.Requests;
using Berth.Unix;
using Microsoft.Extensions.Logging;

namespace Berth.Connections;

/// <summary>
/// One framed connection over a stream socket (plain or TLS), the same type on the server and the client side. Sends
/// are accepted from any thread into a queue bounded in bytes; one receive loop delivers frames to the
/// <see cref="ConnectionHandler"/> and one send loop writes the queue out. Every frame a send accepted is written, or
/// counted in <see cref="DisconnectInfo.UnsentFrames"/>.
/// </summary>
public sealed class Connection
{
    private static long s_lastId;
    private readonly SendQueue _queue;
    private readonly SendWakeup _sendWakeup = new();
    private PendingRequests? _requests;

    internal Connection(
        long id,
        ConnectionTransport transport,
        ConnectionOptions options,
        ConnectionHandler handler,
        ILogger logger,
        Action<Connection, DisconnectInfo> onClosed)
    {
        Id = id;
        Options = options;
        Logger = logger;
        Metrics = BerthMetrics.For(options.MeterFactory);
        HandlerSlots = new HandlerSlots(options.Requests.MaxInFlightHandlers);
        _queue = new SendQueue(options.Format, options.SendQueueLimit, options.BufferPool, options.SendSegmentSize, Metrics);
        Lifetime = new ConnectionLifetime(this, transport, _queue, _sendWakeup, handler, onClosed);
        LocalEndPoint = transport.LocalEndPoint;
        RemoteEndPoint = transport.RemoteEndPoint;
    }

    /// <summary>A number unique among the connections of this process.</summary>
    public long Id { get; }

    /// <summary>This side's address.</summary>
    public EndPoint? LocalEndPoint { get; }

    /// <summary>The peer's address.</summary>
    public EndPoint? RemoteEndPoint { get; }

    /// <summary>
    /// The credentials of the process at the other end of a Unix domain socket (Linux), read from the kernel on each
    /// call; false over TCP, on other systems, or once the connection is closed.
    /// </summary>
    public bool TryGetPeerCredentials(out UnixPeerCredentials credentials) => Lifetime.TryGetPeerCredentials(out credentials);

    /// <summary>True until the connection starts closing; sends are refused from then on.</summary>
    public bool IsConnected => !Lifetime.IsClosing;

    /// <summary>Bytes accepted for sending and not yet written.</summary>
    public long QueuedBytes => _queue.QueuedBytes;

    /// <summary>The most bytes the send queue ever held.</summary>
    internal long PeakQueuedBytes => _queue.PeakQueuedBytes;

    /// <summary>Application data attached to the connection.</summary>
    public object? Tag { get; set; }

    /// <summary>The per-connection state a <see cref="Messages.MessageRouter{TState}"/> made; apart from <see cref="Tag"/>, which stays the application's.</summary>
    internal object? RouterState;

    /// <summary>Completes once the connection has closed and released its buffers, with how it ended.</summary>
    public Task<DisconnectInfo> Closed => Lifetime.Closed;

    internal ConnectionOptions Options { get; }

    internal ILogger Logger { get; }

    internal BerthMetrics Metrics { get; }

    /// <summary>How this connection starts and ends; everything that closes it goes through this.</summary>
    internal ConnectionLifetime Lifetime { get; }

    /// <summary>The asynchronous request handlers running for this connection, which the receive path is bounded by.</summary>
    internal HandlerSlots HandlerSlots { get; }

    /// <summary>The requests awaiting replies; null until the first request.</summary>
    internal PendingRequests? PendingRequests => Volatile.Read(ref _requests);

    /// <summary>The requests awaiting replies, created with the first request.</summary>
    internal PendingRequests Requests
    {
        get
        {
            var requests = Volatile.Read(ref _requests);
            if (requests is null)
            {
                Interlocked.CompareExchange(ref _requests, new PendingRequests(Options.Requests.MaxOutstanding, Lifetime.Loop), null);
                requests = _requests;
            }

            return requests;
        }
    }

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
    public void Close() => Lifetime.Close(DisconnectReason.ClosedByApplication, null, flush: true);

    /// <summary>Closes at once; queued frames are reported unsent.</summary>
    public void Abort() => Lifetime.Close(DisconnectReason.ClosedByApplication, null, flush: false);

    /// <summary>
    /// Closes at once for <paramref name="reason"/>, a reason the application found; queued frames are reported unsent.
    /// The first reason recorded wins, so a connection already closing keeps its own.
    /// </summary>
    /// <param name="reason">
    /// <see cref="DisconnectReason.ClosedByApplication"/>, or what the application found wrong with the peer:
    /// <see cref="DisconnectReason.MalformedFrame"/>, <see cref="DisconnectReason.MalformedMessage"/>,
    /// <see cref="DisconnectReason.UnknownMessage"/>, <see cref="DisconnectReason.SlowConsumer"/> or <see cref="DisconnectReason.IdleTimeout"/>. The other reasons
    /// are only recorded by the connection itself.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException">A reason only the connection itself records.</exception>
    public void Abort(DisconnectReason reason)
    {
        if (reason is not (DisconnectReason.ClosedByApplication or DisconnectReason.MalformedFrame
            or DisconnectReason.MalformedMessage or DisconnectReason.UnknownMessage or DisconnectReason.SlowConsumer or DisconnectReason.IdleTimeout))
        {
            throw new ArgumentOutOfRangeException(nameof(reason), reason, "Only the connection itself closes for this reason.");
        }

        Lifetime.Close(reason, null, flush: false);
    }

    internal static long NextId() => Interlocked.Increment(ref s_lastId);

    /// <summary>Completes when some queued bytes were written or the connection closed.</summary>
    internal Task RoomAvailable() => _queue.RoomAvailable();

    /// <summary>The connection is closing: pending requests fail, and a receive paused on the handler bound wakes.</summary>
    internal void EndRequests()
    {
        PendingRequests?.End();
        HandlerSlots.Freed.Set();
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
                Lifetime.CloseByPolicy(DisconnectReason.SlowConsumer);
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
