using System.Buffers.Binary;
using System.Diagnostics;
using System.Net.Sockets;
using HdrHistogram;

namespace Berth.Cli.Load;

/// <summary>
/// One load connection over a plain socket, so the same client drives any Berth-format echo server. Buffers are
/// allocated up front and the socket's awaitable sends and receives allocate nothing, so a closed-loop run inside the
/// server's process adds no allocations of its own. Echoes come back in order, so each one belongs to the oldest
/// pending send.
/// </summary>
/// <remarks>
/// With a rate, sending and receiving are two loops: sends follow a fixed schedule whether or not echoes came back
/// (up to <see cref="LoadSettings.Pipeline"/> pending), and each round trip is timed from when its send was due, not
/// from when it went out. A stalled server therefore shows up as every request that fell due during the stall, each
/// with the time it waited, rather than as one slow request (coordinated omission).
/// </remarks>
internal sealed class LoadWorker
{
    private readonly LoadSettings _settings;
    private readonly LoadWindow _window;
    private readonly LoadProgress _progress;
    private readonly Random _random;
    private readonly byte[] _outgoing;
    private readonly byte[] _incoming;

    // A ring of the due times of pending sends: the sender writes at the tail, the receiver reads at the head, and
    // _pending (written last by the sender, first read by the receiver) hands the slots over between the two loops.
    private readonly long[] _dueAt;
    private int _head;
    private int _tail;
    private int _pending;
    private int _failed;

    public LoadWorker(LoadSettings settings, LoadWindow window, LoadProgress progress, int seed)
    {
        _settings = settings;
        _window = window;
        _progress = progress;
        _random = new Random(seed);
        _outgoing = new byte[settings.Pipeline * (4 + settings.SizeMax)];
        _random.NextBytes(_outgoing);
        _incoming = new byte[Math.Max(65536, 2 * (4 + settings.SizeMax))];
        _dueAt = new long[settings.Pipeline];
    }

    public LongHistogram Latency { get; } = LatencyRecording.Create();

    public long Messages { get; private set; }

    public long Bytes { get; private set; }

    /// <summary>The connection ended with an error during the run (counted in <see cref="LoadProgress"/>).</summary>
    public bool Failed => Volatile.Read(ref _failed) != 0;

    /// <summary>Frames sent and not yet echoed.</summary>
    public int Pending => Volatile.Read(ref _pending);

    /// <summary>At least one echo came back.</summary>
    public bool Echoed { get; private set; }

    /// <summary>When the last echo arrived, or when the worker started if none did.</summary>
    public long LastEcho { get; private set; } = Stopwatch.GetTimestamp();

    public Task RunAsync(Socket socket) => _settings.Rate > 0
        ? Task.WhenAll(GuardAsync(SendOnScheduleAsync(socket)), GuardAsync(ReceiveAsync(socket, sendBack: false)))
        : GuardAsync(RunClosedLoopAsync(socket));

    private async Task RunClosedLoopAsync(Socket socket)
    {
        await SendAsync(socket, _settings.Pipeline, Stopwatch.GetTimestamp(), 0);
        await ReceiveAsync(socket, sendBack: true);
    }

    private async Task SendOnScheduleAsync(Socket socket)
    {
        var interval = Stopwatch.Frequency / _settings.Rate;
        await Task.Delay(TimeSpan.FromSeconds(_random.NextDouble() / _settings.Rate));
        var start = Stopwatch.GetTimestamp();
        long sent = 0;
        while (!_window.IsOver)
        {
            var now = Stopwatch.GetTimestamp();
            var due = (long)((now - start) / interval) + 1;
            var room = _settings.Pipeline - Volatile.Read(ref _pending);
            var batch = (int)Math.Min(due - sent, room);
            if (batch > 0)
            {
                await SendAsync(socket, batch, start + (long)(sent * interval), interval);
                sent += batch;
            }
            else if (due > sent)
            {
                // As many pending as the pipeline allows: the schedule keeps running, and what falls due meanwhile
                // goes out as soon as echoes make room, still timed from when it was due.
                await Task.Delay(1);
            }
            else
            {
                var wait = Stopwatch.GetElapsedTime(now, start + (long)(sent * interval));
                await Task.Delay(wait > TimeSpan.Zero ? wait : TimeSpan.Zero);
            }
        }
    }

    /// <summary>Sends <paramref name="frames"/> frames in one write; frame i was due at <paramref name="firstDue"/> + i × <paramref name="spacing"/>.</summary>
    private ValueTask<int> SendAsync(Socket socket, int frames, long firstDue, double spacing)
    {
        var length = 0;
        for (var i = 0; i < frames; i++)
        {
            var size = _settings.SizeMin == _settings.SizeMax ? _settings.SizeMin : _random.Next(_settings.SizeMin, _settings.SizeMax + 1);
            BinaryPrimitives.WriteUInt32LittleEndian(_outgoing.AsSpan(length), (uint)size);
            length += 4 + size;
            _dueAt[_tail] = firstDue + (long)(i * spacing);
            _tail = (_tail + 1) % _dueAt.Length;
        }

        Interlocked.Add(ref _pending, frames);
        return socket.SendAsync(_outgoing.AsMemory(0, length), SocketFlags.None);
    }

    /// <summary>Receives echoes until the run ends; in a closed loop, each echo sends the next frame at once.</summary>
    private async Task ReceiveAsync(Socket socket, bool sendBack)
    {
        var buffered = 0;
        while (!_window.IsOver)
        {
            var received = await socket.ReceiveAsync(_incoming.AsMemory(buffered), SocketFlags.None);
            if (received == 0)
            {
                throw new EndOfStreamException();
            }

            buffered += received;
            var (completed, consumed) = Complete(buffered);
            buffered = Compact(consumed, buffered);
            if (sendBack && completed > 0 && !_window.IsOver)
            {
                await SendAsync(socket, completed, Stopwatch.GetTimestamp(), 0);
            }
        }
    }

    /// <summary>Counts the whole echoes at the front of the receive buffer; returns them and the bytes they used.</summary>
    private (int Completed, int Consumed) Complete(int buffered)
    {
        var offset = 0;
        var completed = 0;
        var now = Stopwatch.GetTimestamp();
        var measuring = _window.IsMeasuring;
        while (buffered - offset >= 4)
        {
            var size = (int)BinaryPrimitives.ReadUInt32LittleEndian(_incoming.AsSpan(offset));
            if (size > _settings.SizeMax || Volatile.Read(ref _pending) == 0)
            {
                throw new InvalidDataException($"unexpected echo of {size} bytes");
            }

            if (buffered - offset < 4 + size)
            {
                break;
            }

            offset += 4 + size;
            completed++;
            if (measuring)
            {
                Latency.Record((long)Stopwatch.GetElapsedTime(_dueAt[_head], now).TotalNanoseconds);
                Messages++;
                Bytes += size;
            }

            _head = (_head + 1) % _dueAt.Length;
            Interlocked.Decrement(ref _pending);
        }

        if (completed > 0)
        {
            LastEcho = now;
            Echoed = true;
            _progress.Completed(completed);
        }

        return (completed, offset);
    }

    private int Compact(int consumed, int buffered)
    {
        var left = buffered - consumed;
        if (left > 0 && consumed > 0)
        {
            _incoming.AsSpan(consumed, left).CopyTo(_incoming);
        }

        return left;
    }

    /// <summary>Counts a loop's failure once per connection, unless the run was already over (the socket closed on purpose).</summary>
    private async Task GuardAsync(Task loop)
    {
        try
        {
            await loop;
        }
        catch (Exception e) when (e is SocketException or EndOfStreamException or InvalidDataException or ObjectDisposedException)
        {
            if (!_window.IsOver && Interlocked.Exchange(ref _failed, 1) == 0)
            {
                _progress.Failed(Reason(e));
            }
        }
    }

    private static string Reason(Exception e) => e switch
    {
        SocketException { SocketErrorCode: SocketError.ConnectionReset } => "connection reset by the server",
        SocketException socket => $"socket error: {socket.Message}",
        EndOfStreamException => "connection closed by the server",
        _ => e.Message,
    };
}
