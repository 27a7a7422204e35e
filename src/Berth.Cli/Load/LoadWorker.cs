using System.Buffers.Binary;
using System.Diagnostics;
using System.Net.Sockets;

namespace Berth.Cli.Load;

/// <summary>
/// One load connection over a plain socket, so the same client drives any Berth-format echo server. Buffers are
/// allocated up front and the socket's awaitable sends and receives allocate nothing, so a run inside the server's
/// process adds no allocations of its own. Echoes come back in order, so each one's send time is the oldest pending.
/// </summary>
internal sealed class LoadWorker
{
    private readonly LoadSettings _settings;
    private readonly LoadWindow _window;
    private readonly LoadProgress _progress;
    private readonly Random _random;
    private readonly byte[] _outgoing;
    private readonly byte[] _incoming;
    private readonly long[] _sentAt;
    private int _sentHead;
    private int _sentCount;

    public LoadWorker(LoadSettings settings, LoadWindow window, LoadProgress progress, int seed)
    {
        _settings = settings;
        _window = window;
        _progress = progress;
        _random = new Random(seed);
        var frames = settings.Rate > 0 ? 1 : settings.Pipeline;
        _outgoing = new byte[frames * (4 + settings.SizeMax)];
        _random.NextBytes(_outgoing);
        _incoming = new byte[Math.Max(65536, 2 * (4 + settings.SizeMax))];
        _sentAt = new long[frames];
    }

    public LatencyHistogram Latency { get; } = new();

    public long Messages { get; private set; }

    public long Bytes { get; private set; }

    /// <summary>The connection ended with an error during the run (counted in <see cref="LoadProgress"/>).</summary>
    public bool Failed { get; private set; }

    /// <summary>Frames sent and not yet echoed.</summary>
    public int Pending => _sentCount;

    /// <summary>When the last echo arrived, or when the worker started if none did.</summary>
    public long LastEcho { get; private set; } = Stopwatch.GetTimestamp();

    public async Task RunAsync(Socket socket)
    {
        try
        {
            if (_settings.Rate > 0)
            {
                await RunAtRateAsync(socket);
            }
            else
            {
                await RunClosedLoopAsync(socket);
            }
        }
        catch (Exception e) when (e is SocketException or EndOfStreamException or InvalidDataException)
        {
            if (!_window.IsOver)
            {
                Failed = true;
                _progress.Failed(Reason(e));
            }
        }
    }

    private async Task RunClosedLoopAsync(Socket socket)
    {
        await SendAsync(socket, _settings.Pipeline);
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
            if (completed > 0 && !_window.IsOver)
            {
                await SendAsync(socket, completed);
            }
        }
    }

    private async Task RunAtRateAsync(Socket socket)
    {
        var interval = TimeSpan.FromSeconds(1 / _settings.Rate);
        await Task.Delay(interval * _random.NextDouble());
        var next = Stopwatch.GetTimestamp();
        while (!_window.IsOver)
        {
            await SendAsync(socket, 1);
            var buffered = 0;
            var completed = 0;
            while (completed == 0)
            {
                var received = await socket.ReceiveAsync(_incoming.AsMemory(buffered), SocketFlags.None);
                if (received == 0)
                {
                    throw new EndOfStreamException();
                }

                buffered += received;
                (completed, _) = Complete(buffered);
            }

            next += (long)(interval.TotalSeconds * Stopwatch.Frequency);
            var wait = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), next);
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait);
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

    private ValueTask<int> SendAsync(Socket socket, int frames)
    {
        var length = 0;
        var now = Stopwatch.GetTimestamp();
        for (var i = 0; i < frames; i++)
        {
            var size = _settings.SizeMin == _settings.SizeMax ? _settings.SizeMin : _random.Next(_settings.SizeMin, _settings.SizeMax + 1);
            BinaryPrimitives.WriteUInt32LittleEndian(_outgoing.AsSpan(length), (uint)size);
            length += 4 + size;
            _sentAt[(_sentHead + _sentCount) % _sentAt.Length] = now;
            _sentCount++;
        }

        return socket.SendAsync(_outgoing.AsMemory(0, length), SocketFlags.None);
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
            if (size > _settings.SizeMax || _sentCount == 0)
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
                Latency.Record((long)Stopwatch.GetElapsedTime(_sentAt[_sentHead], now).TotalNanoseconds);
                Messages++;
                Bytes += size;
            }

            _sentHead = (_sentHead + 1) % _sentAt.Length;
            _sentCount--;
        }

        if (completed > 0)
        {
            LastEcho = now;
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
}
