using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>
/// A well-behaved client that keeps echoing frames of random size and content through the server under attack and
/// checks every byte of every echo. It records the first error it meets and the round-trip time of every frame, so
/// a test can show that an attack cost the witness nothing but, in a long run, print what it cost in latency.
/// </summary>
/// <remarks>
/// It runs on a thread of its own with blocking calls, not on the thread pool: the tests of other classes block pool
/// threads while this one runs, so a witness on the pool can wait for it to add a thread before its next frame. In
/// one full-suite run the server closed the witness under an attack test's one-second idle timeout, which such a
/// wait explains; a witness that waits on nobody's pool tests the server, not the test process.
/// </remarks>
internal sealed class Witness : IAsyncDisposable
{
    private const int LargestBody = 16_384;
    private readonly Socket _socket;
    private readonly CancellationTokenSource _stop = new();
    private readonly Lock _latencyLock = new();
    private readonly List<long> _latencies = [];
    private readonly Task _running;
    private long _frames;
    private int _disposed;

    /// <summary>The longest an echo may take before the witness counts it as lost.</summary>
    private static readonly TimeSpan s_echoTimeout = TimeSpan.FromSeconds(30);

    private Witness(Socket socket, int seed)
    {
        _socket = socket;
        _socket.ReceiveTimeout = (int)s_echoTimeout.TotalMilliseconds;
        _socket.SendTimeout = (int)s_echoTimeout.TotalMilliseconds;
        _running = Task.Factory.StartNew(() => Run(seed), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    /// <summary>The witness's own address, which tells its connection apart on the server.</summary>
    public EndPoint LocalEndPoint => _socket.LocalEndPoint!;

    /// <summary>Frames echoed and checked so far.</summary>
    public long Frames => Interlocked.Read(ref _frames);

    /// <summary>The first thing that went wrong: a mismatched byte, a closed connection, a socket error.</summary>
    public Exception? Error { get; private set; }

    /// <param name="server">The server under attack.</param>
    /// <param name="seed">Seeds the frames' sizes and contents.</param>
    /// <param name="from">The local address to connect from, when it matters which (a proxy allowlist).</param>
    public static async Task<Witness> StartAsync(IPEndPoint server, int seed = 1, IPAddress? from = null)
    {
        var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        if (from is not null)
        {
            socket.Bind(new IPEndPoint(from, 0));
        }

        await socket.ConnectAsync(server);
        return new Witness(socket, seed);
    }

    /// <summary>Waits until the witness has echoed <paramref name="more"/> further frames, or has failed.</summary>
    public async Task EchoesMoreAsync(int more)
    {
        var target = Frames + more;
        await Waits.Until(() => Frames >= target || Error is not null || _running.IsCompleted);
    }

    /// <summary>Median and 99th percentile round trip of the frames since the last call, then starts a new window.</summary>
    public (long Frames, double P50Milliseconds, double P99Milliseconds) TakeLatencies()
    {
        long[] window;
        lock (_latencyLock)
        {
            window = [.. _latencies];
            _latencies.Clear();
        }

        if (window.Length == 0)
        {
            return (0, double.NaN, double.NaN);
        }

        Array.Sort(window);
        return (window.Length, Milliseconds(window[window.Length / 2]), Milliseconds(window[(int)(window.Length * 0.99)]));
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await _stop.CancelAsync();
        await _running.Within();
        _socket.Dispose();
        _stop.Dispose();
    }

    private static double Milliseconds(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;

    private void Run(int seed)
    {
        var random = new Random(seed);
        var frame = new byte[4 + LargestBody];
        var echo = new byte[4 + LargestBody];
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var length = random.Next(1, LargestBody + 1);
                BinaryPrimitives.WriteUInt32LittleEndian(frame, (uint)length);
                random.NextBytes(frame.AsSpan(4, length));
                var started = Stopwatch.GetTimestamp();
                _socket.Send(frame.AsSpan(0, 4 + length), SocketFlags.None);
                ReceiveExactly(echo.AsSpan(0, 4 + length));
                var elapsed = Stopwatch.GetTimestamp() - started;
                if (!frame.AsSpan(0, 4 + length).SequenceEqual(echo.AsSpan(0, 4 + length)))
                {
                    throw new InvalidDataException($"Echo {Frames} of {length} bytes differs from what was sent.");
                }

                lock (_latencyLock)
                {
                    _latencies.Add(elapsed);
                }

                Interlocked.Increment(ref _frames);
            }
        }
        catch (Exception e)
        {
            Error = e;
        }
    }

    private void ReceiveExactly(Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var received = _socket.Receive(destination, SocketFlags.None);
            if (received == 0)
            {
                throw new EndOfStreamException("The server closed the witness's connection.");
            }

            destination = destination[received..];
        }
    }
}
