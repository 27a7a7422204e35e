using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace Berth.Cli.Soak;

/// <summary>
/// Runs the attacks one after another in a loop until the soak ends: slow headers on many connections, a peer that
/// never reads, connect-and-reset bursts, garbage, a 0xFFFFFFFF length, max + 1, and half-close. Each attack counts
/// how often it ran and how often the server answered as it should (closed the offender, or echoed and then closed).
/// </summary>
internal sealed class HostilePeers(IPEndPoint server, int maxFrame)
{
    private const int SlowConnections = 100;
    private static readonly TimeSpan Hold = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan CloseWait = TimeSpan.FromSeconds(5);

    private readonly ConcurrentDictionary<string, AttackCount> _counts = new();

    /// <summary>Per attack: runs, and runs the server answered as expected.</summary>
    public IReadOnlyDictionary<string, AttackCount> Counts => _counts;

    /// <summary>
    /// Runs the attacks on a thread of their own: they block on sockets, and borrowing pool threads for that would
    /// slow the in-process server and charge the attackers' cost to its latency.
    /// </summary>
    public Task RunAsync(CancellationToken stop) =>
        Task.Factory.StartNew(() => Run(stop), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private void Run(CancellationToken stop)
    {
        var random = new Random(7);
        (string Name, Func<bool> Run)[] attacks =
        [
            ("slow headers", () => SlowHeaders(stop)),
            ("never reads", NeverReads),
            ("connect and reset", () => ResetChurn.Run(server, 500, 1, stop) == 500),
            ("garbage", () => SendThenExpectClose(Garbage(random))),
            ("length 0xFFFFFFFF", () => SendThenExpectClose([0xFF, 0xFF, 0xFF, 0xFF])),
            ("max + 1", () => SendThenExpectClose(Header(maxFrame + 1))),
            ("half-close", HalfClose),
        ];
        while (!stop.IsCancellationRequested)
        {
            foreach (var (name, run) in attacks)
            {
                if (stop.IsCancellationRequested)
                {
                    return;
                }

                bool held;
                try
                {
                    held = run();
                }
                catch (SocketException)
                {
                    held = false;
                }

                _counts.AddOrUpdate(name, _ => new AttackCount(1, held ? 1 : 0), (_, c) => new AttackCount(c.Runs + 1, c.Held + (held ? 1 : 0)));
            }
        }
    }

    /// <summary>Many connections dribble a header and body a byte at a time; the server must keep serving everyone else.</summary>
    private bool SlowHeaders(CancellationToken stop)
    {
        var sockets = new List<Socket>();
        try
        {
            for (var i = 0; i < SlowConnections; i++)
            {
                var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
                sockets.Add(socket);
                socket.Connect(server);
            }

            var frame = Header(16).Concat(new byte[16]).ToArray();
            for (var offset = 0; offset < frame.Length && offset < Hold.TotalSeconds * 4; offset++)
            {
                foreach (var socket in sockets)
                {
                    socket.Send(frame.AsSpan(offset, 1));
                }

                if (stop.WaitHandle.WaitOne(250))
                {
                    break;
                }
            }

            return true;
        }
        finally
        {
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }
        }
    }

    /// <summary>Sends echo requests and never reads the echoes: the server must bound what it queues and close it.</summary>
    private bool NeverReads()
    {
        using var socket = Connect();
        socket.SendTimeout = 500;
        var frame = Header(Math.Min(maxFrame, 60_000)).Concat(new byte[Math.Min(maxFrame, 60_000)]).ToArray();
        var until = DateTime.UtcNow + Hold + Hold;
        try
        {
            while (DateTime.UtcNow < until)
            {
                socket.Send(frame);
            }
        }
        catch (SocketException)
        {
            // The send timed out against a full window, or the server closed the connection: both mean it stopped
            // taking more from a peer that does not read.
            return true;
        }

        return false;
    }

    private bool SendThenExpectClose(byte[] bytes)
    {
        using var socket = Connect();
        socket.Send(bytes);
        return ClosedByServer(socket);
    }

    /// <summary>Sends one frame and shuts its sending side: the echo must still arrive, then the close.</summary>
    private bool HalfClose()
    {
        using var socket = Connect();
        var body = new byte[100];
        new Random(3).NextBytes(body);
        socket.Send([.. Header(body.Length), .. body]);
        socket.Shutdown(SocketShutdown.Send);
        var echo = new byte[4 + body.Length];
        var got = 0;
        while (got < echo.Length)
        {
            var n = socket.Receive(echo.AsSpan(got));
            if (n == 0)
            {
                return false;
            }

            got += n;
        }

        return echo.AsSpan(4).SequenceEqual(body) && ClosedByServer(socket);
    }

    private Socket Connect()
    {
        var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        socket.ReceiveTimeout = (int)CloseWait.TotalMilliseconds;
        socket.Connect(server);
        return socket;
    }

    private static bool ClosedByServer(Socket socket)
    {
        var sink = new byte[4096];
        try
        {
            while (true)
            {
                if (socket.Receive(sink) == 0)
                {
                    return true;
                }
            }
        }
        catch (SocketException e)
        {
            return e.SocketErrorCode is SocketError.ConnectionReset;
        }
    }

    private static byte[] Header(int bodyLength)
    {
        var header = new byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(header, (uint)bodyLength);
        return header;
    }

    private static byte[] Garbage(Random random)
    {
        var bytes = new byte[1024];
        random.NextBytes(bytes);
        bytes[3] |= 0x80;
        return bytes;
    }
}

/// <summary>How often an attack ran, and how often the server answered it as it should.</summary>
internal readonly record struct AttackCount(long Runs, long Held);
