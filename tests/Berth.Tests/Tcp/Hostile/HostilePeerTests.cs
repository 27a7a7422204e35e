using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Berth.Framing;
using Berth.Connections;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>
/// One attack per test against a server a witness keeps echoing through. Each asserts that the witness echoed 20
/// frames, every byte right, while the attack was verifiably still under way (<see cref="AttackArena.WitnessEchoesDuringAsync"/>),
/// that each attacker's connection ended with the reason the attack deserves, and that the server went back to no
/// connection and no pooled buffer out. Each attack goes on until the witness is done (at least its short or long
/// form). <c>BERTH_LONG_ATTACKS=1</c> runs the long forms and the output gives the witness's p50/p99 during each attack.
/// </summary>
public sealed class HostilePeerTests(ITestOutputHelper output)
{
    [Fact]
    public async Task SlowHeadersOnManyConnectionsAreClosedAsIdle()
    {
        var minimum = AttackLength.Pick(200, 2_000);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions { IdleTimeout = TimeSpan.FromSeconds(1) }, output);
        var sockets = new ConcurrentQueue<Socket>();
        try
        {
            await using (var attack = Attack.Start(async a =>
            {
                while (a.GoesOn(sockets.Count, minimum))
                {
                    var socket = await ConnectAsync(arena.EndPoint);
                    sockets.Enqueue(socket);
                    await socket.SendAsync(new byte[] { 0x10, 0x00 }, SocketFlags.None);
                    a.Step();
                }
            }))
            {
                // Still under way: an attacker the server has not yet closed as idle.
                await arena.WitnessEchoesDuringAsync(attack, () => attack.Steps > arena.Handler.Disconnects.Count);
                await attack.StopAsync();
            }

            await Task.WhenAll(sockets.Select(ClosedByServerAsync)).Within();
        }
        finally
        {
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }
        }

        var reasons = await arena.EndAsync("slow headers", sockets.Count);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.IdleTimeout, r));
    }

    [Fact]
    public async Task APeerThatNeverReadsIsClosedAsASlowConsumer()
    {
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions { SlowConsumerTimeout = TimeSpan.FromSeconds(2) }, output);
        using (var socket = await ConnectAsync(arena.EndPoint))
        {
            var frame = RawClient.Frame(new byte[65_536]);
            var sent = 0L;
            await using var attack = Attack.Start(async a =>
            {
                try
                {
                    // Bounded: the server's queue (1 MiB) and both kernels' buffers fill long before this.
                    while (sent < 512L * 1024 * 1024)
                    {
                        sent += await socket.SendAsync(frame, SocketFlags.None).Within();
                        a.Step();
                    }
                }
                catch (SocketException)
                {
                    // The server closed the connection under the sends, as it should.
                }
            });

            // Still under way: the server holds a full queue for the never-reader, whose sends are stuck, and has not
            // closed it yet.
            await arena.WitnessEchoesDuringAsync(
                attack,
                () => arena.Server.Connections.Any(c => c.QueuedBytes >= arena.Options.SendQueueLimit),
                advancing: false);
            await attack.Running.Within();
            Assert.True(sent < 512L * 1024 * 1024, "The server never closed a peer that does not read.");
        }

        var reasons = await arena.EndAsync("never-reader", 1);
        Assert.Equal(DisconnectReason.SlowConsumer, Assert.Single(reasons));
    }

    [Fact]
    public async Task ConnectAndResetChurnCostsNothing()
    {
        var minimum = AttackLength.Pick(2_000, 200_000);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions(), output);
        long claimed = 0;
        var churn = Task.FromResult(0);
        await using (var attack = Attack.Start(a =>
        {
            churn = ResetChurn.RunWhileAsync(arena.EndPoint, parallel: 16, () => a.GoesOn(Interlocked.Increment(ref claimed) - 1, minimum), a.Step);
            return churn;
        }))
        {
            // Still under way: the churn is still making connections.
            await arena.WitnessEchoesDuringAsync(attack, () => !churn.IsCompleted);
            await attack.StopAsync();
        }

        var resets = await churn;
        Assert.True(resets >= minimum);

        // A connection the client saw complete can still be dropped by the kernel when the accept queue overflows, and
        // never reach the server: every connection the server did open must be closed and reported, and there can be
        // no more of them than the churn made. Counted once nothing is left waiting to be accepted, and at the end,
        // after every connection closed, so one still between accept and open is not missed.
        await Waits.Until(() => AcceptQueue.Length(arena.EndPoint) == 0);
        var reasons = await arena.EndAsync("connect-and-reset churn", attackers: null);
        Assert.InRange(reasons.Length, 1, resets);
        Assert.All(reasons, r => Assert.Contains(r, new[] { DisconnectReason.SocketError, DisconnectReason.ClosedByPeer }));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task GarbageClosesWithTheReasonTheDecoderGivesIt(int seed)
    {
        var minimum = AttackLength.Pick(20, 2_000);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions(), output);
        var random = new Random(seed);
        var expected = new List<DisconnectReason>();
        await using (var attack = Attack.Start(async a =>
        {
            while (a.GoesOn(expected.Count, minimum))
            {
                var garbage = new byte[random.Next(1, 65_536)];
                random.NextBytes(garbage);
                var verdict = Verdict(arena.Options.Format, garbage);
                expected.Add(verdict ?? DisconnectReason.ClosedByPeer);
                using var socket = await ConnectAsync(arena.EndPoint);
                await socket.SendAsync(garbage, SocketFlags.None);
                a.Step();
                if (verdict is null)
                {
                    // Only whole frames (echoed) and a partial one: the server is right to wait, so the attacker leaves.
                    socket.Shutdown(SocketShutdown.Send);
                }

                await ClosedByServerAsync(socket).Within();
            }
        }))
        {
            await arena.WitnessEchoesDuringAsync(attack, () => true);
            await attack.StopAsync();
        }

        var reasons = await arena.EndAsync($"garbage (seed {seed})", expected.Count);
        Assert.Equal(expected.Order(), reasons.Order());
    }

    [Theory]
    [InlineData(0xFFFF_FFFFu)]
    [InlineData((uint)LengthFieldFormat.DefaultMaxBodyLength + 1)]
    public async Task AnAnnouncedLengthOverTheMaximumClosesWithFrameTooLarge(uint announced)
    {
        var minimum = AttackLength.Pick(20, 2_000);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions(), output);
        var header = new byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(header, announced);
        var connections = 0;
        await using (var attack = Attack.Start(async a =>
        {
            for (; a.GoesOn(connections, minimum); connections++)
            {
                using var socket = await ConnectAsync(arena.EndPoint);
                await socket.SendAsync(header, SocketFlags.None);
                a.Step();
                await ClosedByServerAsync(socket).Within();
            }
        }))
        {
            await arena.WitnessEchoesDuringAsync(attack, () => true);
            await attack.StopAsync();
        }

        var reasons = await arena.EndAsync($"length 0x{announced:X8}", connections);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.FrameTooLarge, r));
    }

    [Fact]
    public async Task AMaximumFrameDribbledSlowlyIsEchoedWhole()
    {
        var maxBody = AttackLength.Pick(65_536, LengthFieldFormat.DefaultMaxBodyLength);
        var chunk = AttackLength.Pick(256, 1_024);
        var options = new BerthServerOptions { Format = LengthFieldFormat.Berth.WithMaxBodyLength(maxBody) };
        await using var arena = await AttackArena.StartAsync(options, output);
        var body = new byte[maxBody];
        new Random(5).NextBytes(body);
        var frame = RawClient.Frame(body);
        using (var socket = await ConnectAsync(arena.EndPoint))
        {
            await using (var attack = Attack.Start(async a =>
            {
                // The last byte waits until the witness is done, so the server holds the partial frame all along.
                var last = frame.Length - 1;
                for (var offset = 0; offset < last; offset += chunk)
                {
                    await socket.SendAsync(frame.AsMemory(offset, Math.Min(chunk, last - offset)), SocketFlags.None);
                    a.Step();
                    await Task.Delay(2);
                }

                while (!a.Stopping)
                {
                    await Task.Delay(2);
                }

                await socket.SendAsync(frame.AsMemory(last), SocketFlags.None);
            }))
            {
                // Still under way: the server has not closed the dribbler and has not yet seen the frame's last byte.
                await arena.WitnessEchoesDuringAsync(attack, () => arena.Handler.Disconnects.IsEmpty && socket.Available == 0);
                await attack.StopAsync();
            }

            var echo = new byte[frame.Length];
            await ReceiveExactlyAsync(socket, echo).Within();
            Assert.Equal(frame, echo);
            socket.Shutdown(SocketShutdown.Send);
            await ClosedByServerAsync(socket).Within();
        }

        var reasons = await arena.EndAsync("maximum frame dribbled", 1);
        Assert.Equal(DisconnectReason.ClosedByPeer, Assert.Single(reasons));
    }

    [Fact]
    public async Task AFrameDribbledPastItsDeadlineIsClosedWithFrameTimeout()
    {
        var minimum = AttackLength.Pick(5, 200);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions { FrameTimeout = TimeSpan.FromMilliseconds(500) }, output);
        var sockets = new ConcurrentQueue<Socket>();
        try
        {
            // Each byte resets no timer: only the frame's first byte starts its deadline. A new attacker joins every
            // 100 ms, each sending one more byte of its frame every 100 ms. Bounded: 100 bytes at most per attacker.
            var header = RawClient.Frame(new byte[1_000]);
            var sent = new ConcurrentDictionary<Socket, int>();
            await using (var attack = Attack.Start(async a =>
            {
                while (a.GoesOn(sockets.Count, minimum) || sent.Any(s => s.Value < 100 && s.Key.Connected))
                {
                    if (a.GoesOn(sockets.Count, minimum))
                    {
                        var joining = await ConnectAsync(arena.EndPoint);
                        sockets.Enqueue(joining);
                        sent[joining] = 0;
                    }

                    foreach (var socket in sockets)
                    {
                        var b = sent[socket];
                        if (b >= 100)
                        {
                            continue;
                        }

                        try
                        {
                            await socket.SendAsync(header.AsMemory(b, 1), SocketFlags.None);
                            sent[socket] = b + 1;
                            a.Step();
                        }
                        catch (SocketException)
                        {
                            // Closed by the deadline, as it should be.
                            sent[socket] = 100;
                        }
                    }

                    await Task.Delay(100);
                }
            }))
            {
                // Still under way: an attacker the server has not closed yet.
                await arena.WitnessEchoesDuringAsync(attack, () => sockets.Count > arena.Handler.Disconnects.Count);
                await attack.StopAsync();
            }

            await Task.WhenAll(sockets.Select(ClosedByServerAsync)).Within();
        }
        finally
        {
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }
        }

        var reasons = await arena.EndAsync("one byte every 100 ms", sockets.Count);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.FrameTimeout, r));
    }

    [Fact]
    public async Task APipeliningPeerThatReadsItsEchoesIsNeverDropped()
    {
        var minimum = AttackLength.Pick(64, 256);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions(), output);
        var body = new byte[1_048_576];
        new Random(17).NextBytes(body);
        var frame = RawClient.Frame(body);
        using (var socket = await ConnectAsync(arena.EndPoint))
        {
            var sent = 0;
            var sending = Task.CompletedTask;
            await using (var attack = Attack.Start(async a =>
            {
                // Sends never wait for an echo; the reader checks every echo byte for byte as it comes.
                sending = Task.Run(async () =>
                {
                    while (a.GoesOn(sent, minimum))
                    {
                        await socket.SendAsync(frame, SocketFlags.None).Within();
                        Interlocked.Increment(ref sent);
                    }
                });
                var echo = new byte[frame.Length];
                for (var read = 0; read < Volatile.Read(ref sent) || !sending.IsCompleted;)
                {
                    if (read == Volatile.Read(ref sent))
                    {
                        // Read only echoes of frames sent, so the reader never waits for one that will not come.
                        await Task.Delay(1);
                        continue;
                    }

                    await ReceiveExactlyAsync(socket, echo).Within();
                    Assert.True(echo.AsSpan().SequenceEqual(frame), $"echo {read} differs");
                    read++;
                    a.Step();
                }

                await sending;
            }))
            {
                // Still under way: the pipeliner is still sending and reading its echoes.
                await arena.WitnessEchoesDuringAsync(attack, () => !sending.IsCompleted);
                await attack.StopAsync();
            }

            socket.Shutdown(SocketShutdown.Send);
            await ClosedByServerAsync(socket).Within();
            output.WriteLine($"{sent} pipelined 1 MiB frames");
        }

        var reasons = await arena.EndAsync("pipelined 1 MiB frames", 1);
        Assert.Equal(DisconnectReason.ClosedByPeer, Assert.Single(reasons));
    }

    [Fact]
    public async Task AHalfClosingPeerGetsEveryEchoThenTheClose()
    {
        var minimum = AttackLength.Pick(20, 2_000);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions(), output);
        var random = new Random(11);
        var connections = 0;
        await using (var attack = Attack.Start(async a =>
        {
            for (; a.GoesOn(connections, minimum); connections++)
            {
                var frames = Enumerable.Range(0, 10).Select(_ => RandomFrame(random)).ToArray();
                var all = frames.SelectMany(f => f).ToArray();
                using var socket = await ConnectAsync(arena.EndPoint);
                await socket.SendAsync(all, SocketFlags.None);
                socket.Shutdown(SocketShutdown.Send);
                a.Step();
                var echo = new byte[all.Length];
                await ReceiveExactlyAsync(socket, echo).Within();
                Assert.Equal(all, echo);
                await ClosedByServerAsync(socket).Within();
            }
        }))
        {
            await arena.WitnessEchoesDuringAsync(attack, () => true);
            await attack.StopAsync();
        }

        var reasons = await arena.EndAsync("half-close", connections);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.ClosedByPeer, r));
    }

    [Fact]
    public async Task AFloodPastMaxConnectionsIsRefusedAndTheRestServed()
    {
        var room = AttackLength.Pick(50, 1_000);
        var minimum = AttackLength.Pick(150, 5_000);
        await using var arena = await AttackArena.StartAsync(new BerthServerOptions { MaxConnections = room + 1 }, output);
        var sockets = new ConcurrentQueue<Socket>();
        try
        {
            await using (var attack = Attack.Start(async a =>
            {
                while (a.GoesOn(sockets.Count, minimum))
                {
                    var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                    sockets.Enqueue(socket);
                    try
                    {
                        await socket.ConnectAsync(arena.EndPoint).Within();
                    }
                    catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
                    {
                        // Refused so fast that the reset overtook the connect's completion.
                    }

                    a.Step();
                }
            }))
            {
                // Still under way: the server is full, and the flood is still knocking.
                await arena.WitnessEchoesDuringAsync(attack, () => arena.Server.ConnectionCount == room + 1);
                await attack.StopAsync();
            }

            await Waits.Until(() => arena.Handler.Disconnects.Count(d => d.Info.Reason == DisconnectReason.ConnectionLimit) == sockets.Count - room);
            await Waits.Until(() => arena.Server.ConnectionCount == room + 1);
        }
        finally
        {
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }
        }

        var reasons = await arena.EndAsync("flood past the connection limit", sockets.Count);
        Assert.Equal(sockets.Count - room, reasons.Count(r => r == DisconnectReason.ConnectionLimit));
        Assert.Equal(room, reasons.Count(r => r == DisconnectReason.ClosedByPeer));
    }

    private static async Task<Socket> ConnectAsync(IPEndPoint server)
    {
        var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(server).Within();
        return socket;
    }

    /// <summary>Drains what the server still sends and completes when it closed or reset the connection.</summary>
    private static async Task ClosedByServerAsync(Socket socket)
    {
        var sink = new byte[65_536];
        try
        {
            while (await socket.ReceiveAsync(sink, SocketFlags.None) > 0)
            {
            }
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
        }
    }

    private static async Task ReceiveExactlyAsync(Socket socket, Memory<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var received = await socket.ReceiveAsync(destination, SocketFlags.None);
            if (received == 0)
            {
                throw new EndOfStreamException("The server closed the connection early.");
            }

            destination = destination[received..];
        }
    }

    private static byte[] RandomFrame(Random random)
    {
        var body = new byte[random.Next(0, 4_096)];
        random.NextBytes(body);
        return RawClient.Frame(body);
    }

    /// <summary>What the server must close <paramref name="garbage"/> for, by the decoder's own reading; null when it is only frames and a partial one.</summary>
    private static DisconnectReason? Verdict(LengthFieldFormat format, byte[] garbage)
    {
        var decoder = new FrameDecoder(format);
        var rest = new ReadOnlySequence<byte>(garbage);
        while (true)
        {
            switch (decoder.TryReadFrame(ref rest, out _))
            {
                case FrameReadResult.Frame:
                    continue;
                case FrameReadResult.TooLarge:
                    return DisconnectReason.FrameTooLarge;
                case FrameReadResult.Malformed:
                    return DisconnectReason.MalformedFrame;
                default:
                    return null;
            }
        }
    }
}
