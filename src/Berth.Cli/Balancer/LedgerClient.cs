using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics;
using Berth.Connections;

namespace Berth.Cli.Balancer;

/// <summary>
/// One client of the rolling restart: a <see cref="BerthClient"/> with <see cref="BerthClientOptions.Reconnect"/> that
/// keeps its own ledger, because the balancer acknowledges TCP on the backend's behalf and the kernel's counts say
/// nothing about what a backend received. Each frame carries the client's number and a sequence number; a frame is
/// echoed (its echo came back, in order, byte for byte) or failed (refused by <c>TrySend</c>, or outstanding when its
/// connection ended, which <see cref="ConnectionHandler.OnDisconnected"/> tells the client). Anything else (an echo
/// not expected next: a duplicate, a reorder, another client's frame) is counted as unexpected.
/// </summary>
internal sealed class LedgerClient : ConnectionHandler
{
    private const int FrameLength = 16;

    private readonly Lock _gate = new();
    private readonly List<long> _outstanding = [];
    private readonly List<Reconnection> _reconnections = [];
    private readonly int _window;
    private long _nextSequence;
    private long _lostAt;
    private bool _stopping;

    public LedgerClient(int number, int window, BerthClientOptions options)
    {
        Number = number;
        _window = window;
        Client = new BerthClient(options, this);
    }

    public int Number { get; }

    public BerthClient Client { get; }

    public long Sent { get; private set; }

    public long Echoed { get; private set; }

    public long Failed { get; private set; }

    public long Unexpected { get; private set; }

    /// <summary>Frames sent and neither echoed nor failed yet.</summary>
    public int Outstanding
    {
        get
        {
            lock (_gate)
            {
                return _outstanding.Count;
            }
        }
    }

    /// <summary>True while the connection is lost and no echo has come back on a new one.</summary>
    public bool Away
    {
        get
        {
            lock (_gate)
            {
                return _lostAt != 0;
            }
        }
    }

    /// <summary>Each time the connection was lost: how long until the first echo on the next one.</summary>
    public IReadOnlyList<Reconnection> Reconnections
    {
        get
        {
            lock (_gate)
            {
                return [.. _reconnections];
            }
        }
    }

    /// <summary>Sends the next frame unless the window is full or the client is between connections.</summary>
    public void SendNext()
    {
        if (Client.Connection is not { IsConnected: true } connection)
        {
            return;
        }

        Span<byte> frame = stackalloc byte[FrameLength];
        lock (_gate)
        {
            if (_stopping || _outstanding.Count >= _window)
            {
                return;
            }

            var sequence = _nextSequence++;
            BinaryPrimitives.WriteInt64LittleEndian(frame, Number);
            BinaryPrimitives.WriteInt64LittleEndian(frame[8..], sequence);
            _outstanding.Add(sequence);
            Sent++;

            // Inside the lock: a close that runs during the send reports what was outstanding once, with this frame
            // in it or not, and a refused frame is then found missing rather than counted twice.
            if (!connection.TrySend(frame) && _outstanding.Remove(sequence))
            {
                Failed++;
            }
        }
    }

    /// <summary>No frame is sent from now on; what is outstanding still gets its echo.</summary>
    public void StopSending()
    {
        lock (_gate)
        {
            _stopping = true;
        }
    }

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        Span<byte> frame = stackalloc byte[FrameLength];
        var whole = body.Length == FrameLength;
        if (whole)
        {
            body.CopyTo(frame);
        }

        lock (_gate)
        {
            if (!whole
                || BinaryPrimitives.ReadInt64LittleEndian(frame) != Number
                || _outstanding.Count == 0
                || BinaryPrimitives.ReadInt64LittleEndian(frame[8..]) != _outstanding[0])
            {
                Unexpected++;
                return;
            }

            _outstanding.RemoveAt(0);
            Echoed++;
            if (_lostAt != 0)
            {
                _reconnections.Add(new Reconnection(Number, _lostAt, Stopwatch.GetElapsedTime(_lostAt)));
                _lostAt = 0;
            }
        }
    }

    public override void OnDisconnected(Connection connection, DisconnectInfo info)
    {
        lock (_gate)
        {
            Failed += _outstanding.Count;
            _outstanding.Clear();
            if (!_stopping && _lostAt == 0)
            {
                _lostAt = Stopwatch.GetTimestamp();
            }
        }
    }
}

/// <summary>A client lost its connection at <paramref name="LostAt"/> (a <see cref="Stopwatch"/> timestamp) and had its first echo on a new one <paramref name="Took"/> later.</summary>
internal sealed record Reconnection(int Client, long LostAt, TimeSpan Took);
