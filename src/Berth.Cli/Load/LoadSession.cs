using System.Buffers;
using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using Berth.Connections;

namespace Berth.Cli.Load;

/// <summary>
/// One load connection: the handler of its <see cref="BerthClient"/>, with the due times of the frames it sent and
/// not yet got back. Echoes come back in order, so each one belongs to the oldest pending send, and must hold exactly
/// that request's bytes: any other echo fails the connection, naming what differed. Bodies are slices of
/// one shared random payload, at <see cref="BodyVariants"/> offsets in turn as the C load generator's frames are, so an
/// echo repeated, dropped or out of order differs from the request it is checked against; the connection's sends and
/// receives allocate nothing, so a run inside the server's process adds no allocations of its own.
/// </summary>
/// <remarks>
/// In a closed loop the first echo fills the pipeline and each later echo sends the next frame, so the frames of one
/// delivery always leave in one send. With a rate, the <see cref="LoadPacer"/> marks each request due
/// on a fixed schedule whether or not echoes came back, from the thread of the epoll loop that serves the session, and each round trip is timed from when its request was due,
/// not from when it went out: up to <see cref="LoadSettings.Pipeline"/> are pending, and what falls due beyond that
/// goes out as echoes make room. A stalled server therefore shows up as every request that fell due during the stall,
/// each with the time it waited, rather than as one slow request (coordinated omission).
/// </remarks>
internal sealed class LoadSession(LoadSettings settings, LoadWindow window, LoadProgress progress, byte[] payload, int seed)
    : ConnectionHandler
{
    /// <summary>
    /// How many distinct bodies the requests cycle through: not a divisor of any pipeline depth in use, so a shifted
    /// echo does not match by accident. The shared payload is this many bytes, less one, longer than the largest body.
    /// </summary>
    public const int BodyVariants = 17;

    /// <summary>
    /// Held only when a pacer thread and the receive loop's both send (<see cref="_pacedFromAnotherThread"/>); a closed
    /// loop sends from the receive loop alone, and so does a rate paced on the session's own epoll loop.
    /// </summary>
    private readonly Lock _lock = new();

    /// <summary>Nanoseconds per Stopwatch tick (1 on Linux): a round trip in ticks times this, with no TimeSpan between.</summary>
    private static readonly double s_nanosecondsPerTick = 1e9 / Stopwatch.Frequency;
    private readonly bool _paced = settings.Rate > 0;
    private bool _pacedFromAnotherThread;
    private readonly long[] _dueAt = new long[settings.Pipeline];
    private readonly int[] _sizeAt = new int[settings.Pipeline];
    private ulong _sizes = ((ulong)seed * 0x9E3779B97F4A7C15) | 1;
    private Connection? _connection;
    private LoadRecorder? _loopRecorder;
    private int _head;
    private int _tail;
    private int _pending;
    private int _failed;
    private long _firstDue;
    private double _interval;
    private long _fallenDue;
    private long _sent;
    private int _sendVariant;
    private int _echoVariant;
    private bool _batchBegun;
    private long _deliveredAt;
    private bool _measuringBatch;
    private bool _batchAfterWindow;

    /// <summary>The connection ended with an error during the run (counted in <see cref="LoadProgress"/>).</summary>
    public bool Failed => Volatile.Read(ref _failed) != 0;

    /// <summary>Frames sent and not yet echoed.</summary>
    public int Pending
    {
        get
        {
            lock (_lock)
            {
                return _pending;
            }
        }
    }

    /// <summary>The epoll loop whose thread handles this session's echoes, or null off the epoll transport.</summary>
    public Berth.Connections.Transport.Epoll.EpollLoop? Loop => _connection?.Lifetime.Loop;

    /// <summary>At least one echo came back.</summary>
    public bool Echoed { get; private set; }

    /// <summary>When the last echo arrived, or when the requests started if none did.</summary>
    public long LastEcho { get; private set; }

    /// <summary>
    /// Takes the connection; a new one may be served by another loop, so the kept recorder is looked up again, and its
    /// first echo begins a batch (a connection that failed inside a batch never saw that batch end).
    /// </summary>
    public override void OnConnected(Connection connection) => (_connection, _loopRecorder, _batchBegun) = (connection, null, false);

    /// <summary>
    /// Closed loop: sends one frame now; its echo fills the pipeline. Sent from here, outside a delivery, each frame
    /// would leave in a send of its own, the echo server would answer each in a segment of its own, and the run would
    /// keep that one-frame-per-segment rhythm to its end at a fraction of the rate; replies queued while a delivery runs
    /// leave together.
    /// </summary>
    public void StartClosedLoop()
    {
        LastEcho = Stopwatch.GetTimestamp();
        _ = Send(Stopwatch.GetTimestamp());
    }

    /// <summary>
    /// At a rate: request n falls due at <paramref name="firstDue"/> + n × <paramref name="interval"/> (Stopwatch ticks),
    /// marked by <see cref="FallDue"/> on the thread of the session's epoll loop when <paramref name="onLoop"/>, else on a
    /// pacer thread of its own.
    /// </summary>
    public void Schedule(long firstDue, double interval, bool onLoop) =>
        (_firstDue, _interval, _pacedFromAnotherThread, LastEcho) = (firstDue, interval, !onLoop, Stopwatch.GetTimestamp());

    /// <summary>From the pacer: one more request fell due; it goes out now unless the pipeline is full.</summary>
    public void FallDue()
    {
        if (!_pacedFromAnotherThread)
        {
            _fallenDue++;
            SendWhatIsDue();
            return;
        }

        lock (_lock)
        {
            _fallenDue++;
            SendWhatIsDue();
        }
    }

    /// <summary>Closes the connection at once; the run is over, so nothing counts as an error.</summary>
    public void Abort() => _connection?.Abort();

    /// <summary>
    /// An echo arrived. Every echo of one delivered batch is timed with the same clock reading, and falls in or out of
    /// the measurement window by the same look at it, both taken at the batch's first frame, as the C load generator
    /// reads the clock and the window once per receive, which may hold several echoes: a clock read per echo was the
    /// largest user-space item of the closed loop's profile.
    /// </summary>
    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        if (!_batchBegun)
        {
            _deliveredAt = Stopwatch.GetTimestamp();
            (_measuringBatch, _batchAfterWindow) = (window.IsMeasuring, window.IsOver);
            _batchBegun = true;
        }

        if (!_pacedFromAnotherThread)
        {
            OnEcho(body);
            return;
        }

        lock (_lock)
        {
            OnEcho(body);
        }
    }

    /// <summary>The batch is over: the next echo reads the clock and the window again.</summary>
    public override void OnFramesDelivered(Connection connection) => _batchBegun = false;

    public override void OnDisconnected(Connection connection, DisconnectInfo info)
    {
        if (!window.IsOver && info.Reason != DisconnectReason.ClosedByApplication)
        {
            Fail(Reason(info));
        }
    }

    private void OnEcho(in ReadOnlySequence<byte> body)
    {
        var now = _deliveredAt;
        Answered(body, now);
        if (_batchAfterWindow)
        {
            return;
        }

        if (_paced)
        {
            SendWhatIsDue();
            return;
        }

        while (_pending < _dueAt.Length && Send(now))
        {
            // Tops the pipeline up to its depth: all of it after the first echo, one frame after each later one.
        }
    }

    private void SendWhatIsDue()
    {
        while (_sent < _fallenDue && _pending < _dueAt.Length && Send(_firstDue + (long)(_sent * _interval)))
        {
            _sent++;
        }
    }

    /// <summary>Checks <paramref name="body"/> against the oldest pending request and records its round trip.</summary>
    /// <exception cref="InvalidDataException">No request was pending, or the echo differs from it.</exception>
    private void Answered(in ReadOnlySequence<byte> body, long now)
    {
        if (_pending == 0)
        {
            throw new InvalidDataException($"unexpected echo of {body.Length} bytes");
        }

        var request = new ReadOnlySpan<byte>(payload, _echoVariant, _sizeAt[_head]);
        if (!IsEchoOf(body, request))
        {
            throw new InvalidDataException($"an echo of {body.Length} bytes differs from the {request.Length}-byte request it answers");
        }

        var due = _dueAt[_head];
        _head = Next(_head);
        _echoVariant = NextVariant(_echoVariant);
        _pending--;
        LastEcho = now;
        Echoed = true;
        Recorder().Echoed(request.Length, (long)((now - due) * s_nanosecondsPerTick), _measuringBatch);
    }

    /// <summary>
    /// The receiving thread's recorder. A session on an epoll loop gets every echo on that loop's thread, so it keeps the
    /// recorder after the first look-up instead of finding it in the thread-local table per echo (a share of the closed
    /// loop's profile); elsewhere echoes may arrive on any pool thread, and each one looks it up.
    /// </summary>
    private LoadRecorder Recorder()
    {
        if (_loopRecorder is { } kept)
        {
            return kept;
        }

        var recorder = progress.Recorder;
        if (Loop?.IsCurrentThread == true)
        {
            _loopRecorder = recorder;
        }

        return recorder;
    }

    /// <summary>
    /// Queues one frame due at <paramref name="due"/>; false when the connection is closing or its queue full. The
    /// frame is counted pending before it is queued: in a closed loop its echo may reach the receive loop's thread
    /// before the queueing call returns, and the queue's lock publishes the count to that thread.
    /// </summary>
    private bool Send(long due)
    {
        var size = settings.SizeMin == settings.SizeMax ? settings.SizeMin : NextSize();
        var slot = _tail;
        var variant = _sendVariant;
        _dueAt[slot] = due;
        _sizeAt[slot] = size;
        _tail = Next(slot);
        _sendVariant = NextVariant(variant);
        _pending++;
        if (_connection is { } connection && connection.TrySend(new ReadOnlySpan<byte>(payload, variant, size)))
        {
            return true;
        }

        // Not queued, so no echo can answer it.
        _tail = slot;
        _sendVariant = variant;
        _pending--;
        if (_connection is { IsConnected: true } full)
        {
            Fail("send queue full");
            full.Abort();
        }

        return false;
    }

    /// <summary>The slot after <paramref name="slot"/> in the ring of pending requests, without a division per echo.</summary>
    private int Next(int slot) => slot + 1 == _dueAt.Length ? 0 : slot + 1;

    /// <summary>The body variant after <paramref name="variant"/>, without a division per request.</summary>
    private static int NextVariant(int variant) => variant + 1 == BodyVariants ? 0 : variant + 1;

    /// <summary>True when <paramref name="body"/> holds exactly the bytes of <paramref name="request"/>.</summary>
    private static bool IsEchoOf(in ReadOnlySequence<byte> body, ReadOnlySpan<byte> request)
    {
        if (SequenceMarshal.TryGetArray(body, out var run))
        {
            // The usual case: the echo is one run of the receive ring's array. Read as that run, it skips the
            // sequence's general first-span lookup, which for an array-backed sequence is a call of its own per echo.
            return run.AsSpan().SequenceEqual(request);
        }

        if (body.Length != request.Length)
        {
            return false;
        }

        foreach (var segment in body)
        {
            if (!segment.Span.SequenceEqual(request[..segment.Length]))
            {
                return false;
            }

            request = request[segment.Length..];
        }

        return true;
    }

    /// <summary>A size between the smallest and the largest, from a xorshift generator: no per-session Random object.</summary>
    private int NextSize()
    {
        _sizes ^= _sizes << 13;
        _sizes ^= _sizes >> 7;
        _sizes ^= _sizes << 17;
        return settings.SizeMin + (int)(_sizes % (ulong)(settings.SizeMax - settings.SizeMin + 1));
    }

    /// <summary>Counts the connection's failure once, unless the run was already over (the connection closed on purpose).</summary>
    private void Fail(string reason)
    {
        if (!window.IsOver && Interlocked.Exchange(ref _failed, 1) == 0)
        {
            progress.Failed(reason);
        }
    }

    private static string Reason(DisconnectInfo info) => (info.Reason, info.Error) switch
    {
        (DisconnectReason.ClosedByPeer, _) => "connection closed by the server",
        (_, SocketException { SocketErrorCode: SocketError.ConnectionReset }) => "connection reset by the server",
        (_, SocketException socket) => $"socket error: {socket.Message}",
        (DisconnectReason.HandlerFailed, { } error) => error.Message,
        (DisconnectReason.FrameTooLarge, _) => "the server sent a frame larger than any request",
        (var reason, _) => $"closed: {reason}",
    };
}
