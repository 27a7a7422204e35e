using System.Buffers;
using System.Net.Sockets;
using Berth.Connections;

namespace Berth.Tests.Tcp;

public sealed class SchedulingTests
{
    private const byte FlooderId = 255;

    [Fact]
    public async Task InlineSchedulingRunsTheHandlerOnAnEventLoopThread()
    {
        var handler = new ThreadRecordingHandler();
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.Inline }, handler);
        using var client = new RawClient(server.EndPoint);

        // The receive loop starts on a pool thread and moves to its event loop once a receive has to wait; the pause
        // makes the second frame arrive after that.
        client.SendFrame([1]);
        Assert.Equal(new byte[] { 1 }, client.ReceiveFrame());
        Thread.Sleep(200);
        client.SendFrame([2]);
        Assert.Equal(new byte[] { 2 }, client.ReceiveFrame());
        Assert.StartsWith("Berth epoll", handler.LastThreadName);
    }

    [Fact]
    public async Task ThreadPoolSchedulingRunsTheHandlerOnThePool()
    {
        var handler = new ThreadRecordingHandler();
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.ThreadPool }, handler);
        using var client = new RawClient(server.EndPoint);
        client.SendFrame([1]);
        Assert.Equal(new byte[] { 1 }, client.ReceiveFrame());
        Assert.True(handler.LastOnPool);
    }

    [Fact]
    public async Task AHandlerThatBlocksUnderThreadPoolSchedulingDoesNotStallAnotherConnection()
    {
        using var release = new ManualResetEventSlim();
        var handler = new BlockOnEmptyFrame(release);
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.ThreadPool }, handler);
        using var blocked = new RawClient(server.EndPoint);
        using var other = new RawClient(server.EndPoint);
        blocked.SendFrame([]);
        Assert.True(handler.Blocking.Wait(Waits.Patience));

        for (var i = 0; i < 100; i++)
        {
            other.SendFrame([(byte)i]);
            Assert.Equal(new[] { (byte)i }, other.ReceiveFrame());
        }

        release.Set();
        Assert.Empty(blocked.ReceiveFrame());
    }

    [Fact]
    public async Task AClientRunsItsHandlerOnAnEventLoopThreadToo()
    {
        await using var server = EchoTests.Start(new BerthServerOptions());
        var handler = new ThreadRecordingHandler { Echo = false };
        await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, handler);
        var connection = await client.ConnectAsync();
        Thread.Sleep(200);
        Assert.True(connection.TrySend([5]));
        await Waits.Until(() => handler.LastThreadName is not null);
        Assert.StartsWith("Berth epoll", handler.LastThreadName);
    }

    [Fact]
    public async Task AConnectionWhoseDataNeverRunsOutDoesNotStallTheOthersOnItsLoop()
    {
        var handler = new HoldingFloodHandler();

        // A small receive ring keeps each receive small, so a turn of receives is far less than the flood waiting.
        await using var server = EchoTests.Start(new BerthServerOptions { ReceiveBufferSize = 1024 }, handler);

        // A receive loop starts on a pool thread and moves to its connection's event loop only once a receive has to
        // wait; a flood that never let it wait would stay on the pool and leave the loop free. So the flooder and every
        // witness first make round trips until the server handles their frames on an event loop thread, which also
        // tells which loop each one is on.
        using var flooder = new RawClient(server.EndPoint);
        var floodLoop = OnItsLoop(flooder, FlooderId, handler);
        var witnesses = new List<(RawClient Client, byte Id)>();
        for (byte id = 0; witnesses.Count < 2; id++)
        {
            Assert.True(id < 32, "no two connections of 32 landed on the flooder's event loop");
            var candidate = new RawClient(server.EndPoint);
            if (OnItsLoop(candidate, id, handler) == floodLoop)
            {
                witnesses.Add((candidate, id));
            }
            else
            {
                candidate.Dispose();
            }
        }

        try
        {
            // The first flood frame holds the loop in the handler while the flooder fills every buffer between it and
            // the server, so the flood's data is still there, far more of it than one turn, when the witnesses ask.
            var frame = RawClient.Frame(new byte[200]);
            flooder.Send(frame);
            Assert.True(handler.Holding.Wait(Waits.Patience), "the first flood frame never reached the handler");
            var flood = FillUntilFull(flooder.Socket, frame);
            foreach (var (client, id) in witnesses)
            {
                client.SendFrame([id, 0]);
            }

            handler.Release.Set();
            foreach (var (client, id) in witnesses)
            {
                Assert.Equal(new byte[] { id, 0 }, client.ReceiveFrame());

                // Served while the flood was still waiting: without a turn limit the loop would have stayed with the
                // flood until its data ran out.
                var handled = handler.FloodBytesWhenServed(id);
                Assert.True(handled < flood.Bytes, $"witness {id} was served only after {handled:N0} of the flood's {flood.Bytes:N0} bytes");
            }

            await flood.Remainder.Within();
            Assert.Equal(floodLoop, handler.FloodThread);
        }
        finally
        {
            handler.Release.Set();
            witnesses.ForEach(w => w.Client.Dispose());
        }
    }

    /// <summary>
    /// Sends <paramref name="frame"/> without blocking until the socket takes no more; the frame cut short there is
    /// finished by the returned task once the server reads. Bytes counts every flood frame sent, the held one included.
    /// </summary>
    private static (long Bytes, Task Remainder) FillUntilFull(Socket socket, byte[] frame)
    {
        var bytes = (long)frame.Length;
        socket.Blocking = false;
        try
        {
            while (true)
            {
                var sent = socket.Send(frame, SocketFlags.None, out var error);
                if (error == SocketError.WouldBlock)
                {
                    return (bytes, Task.CompletedTask);
                }

                Assert.Equal(SocketError.Success, error);
                bytes += frame.Length;
                if (sent < frame.Length)
                {
                    socket.Blocking = true;
                    return (bytes, Task.Run(() => socket.Send(frame.AsSpan(sent))));
                }
            }
        }
        finally
        {
            socket.Blocking = true;
        }
    }

    /// <summary>Round trips of <c>[id]</c> until the server handles one on an event loop thread; that thread's name.</summary>
    private static string OnItsLoop(RawClient client, byte id, HoldingFloodHandler handler)
    {
        for (var trip = 0; trip < 1_000; trip++)
        {
            client.SendFrame([id]);
            Assert.Equal(new[] { id }, client.ReceiveFrame());
            if (handler.ThreadOf(id) is { } name && name.StartsWith("Berth epoll", StringComparison.Ordinal))
            {
                return name;
            }
        }

        throw new InvalidOperationException($"connection {id}'s frames were never handled on an event loop thread");
    }

    /// <summary>
    /// Echoes short frames; takes flood frames (100 bytes or more) without a reply, holding the first of them until
    /// released. Records the thread each connection's one-byte frames ran on, and how many flood bytes had been
    /// handled when a two-byte witness frame <c>[id, n]</c> was.
    /// </summary>
    private sealed class HoldingFloodHandler : ConnectionHandler
    {
        private readonly string?[] _threads = new string?[256];
        private readonly long[] _floodBytesWhenServed = new long[256];
        private long _floodBytes;

        public ManualResetEventSlim Holding { get; } = new();

        public ManualResetEventSlim Release { get; } = new();

        /// <summary>The thread that handled the latest flood frame.</summary>
        public string? FloodThread { get; private set; }

        public string? ThreadOf(byte id) => Volatile.Read(ref _threads[id]);

        public long FloodBytesWhenServed(byte id) => Volatile.Read(ref _floodBytesWhenServed[id]);

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (body.Length >= 100)
            {
                FloodThread = Thread.CurrentThread.Name ?? "";
                Interlocked.Add(ref _floodBytes, body.Length + 4);
                if (!Holding.IsSet)
                {
                    Holding.Set();
                    Release.Wait(Waits.Patience);
                }

                return;
            }

            var id = body.FirstSpan[0];
            if (body.Length == 1)
            {
                Volatile.Write(ref _threads[id], Thread.CurrentThread.Name ?? "");
            }
            else
            {
                Volatile.Write(ref _floodBytesWhenServed[id], Interlocked.Read(ref _floodBytes));
            }

            connection.TrySend(body);
        }
    }

    private sealed class ThreadRecordingHandler : ConnectionHandler
    {
        public volatile string? LastThreadName;

        public volatile bool LastOnPool;

        public bool Echo { get; init; } = true;

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            LastOnPool = Thread.CurrentThread.IsThreadPoolThread;
            LastThreadName = Thread.CurrentThread.Name ?? string.Empty;
            if (Echo)
            {
                connection.TrySend(body);
            }
        }
    }

    private sealed class BlockOnEmptyFrame(ManualResetEventSlim release) : ConnectionHandler
    {
        public ManualResetEventSlim Blocking { get; } = new();

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (body.IsEmpty)
            {
                Blocking.Set();
                release.Wait(Waits.Patience);
            }

            connection.TrySend(body);
        }
    }
}
