using System.Buffers;
using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using Berth.Framing;
using Berth.Tcp;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>
/// One attack per test against a server a witness keeps echoing through. Each asserts that the witness saw no error
/// and every byte right, that each attacker's connection ended with the reason the attack deserves, and that the
/// server went back to no connection and no pooled buffer out. <c>BERTH_LONG_ATTACKS=1</c> runs the long forms and
/// the output gives the witness's p50/p99 during each attack.
/// </summary>
public sealed class HostilePeerTests(ITestOutputHelper output)
{
    [Fact]
    public async Task SlowHeadersOnManyConnectionsAreClosedAsIdle()
    {
        var attackers = AttackLength.Pick(200, 2_000);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions { IdleTimeout = TimeSpan.FromSeconds(1) }, output);
        var sockets = new List<Socket>();
        try
        {
            for (var i = 0; i < attackers; i++)
            {
                var socket = await ConnectAsync(arena.EndPoint);
                sockets.Add(socket);
                await socket.SendAsync(new byte[] { 0x10, 0x00 }, SocketFlags.None);
            }

            await Task.WhenAll(sockets.Select(ClosedByServerAsync)).Within();
        }
        finally
        {
            sockets.ForEach(s => s.Dispose());
        }

        var reasons = await arena.EndAsync("slow headers", attackers);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.IdleTimeout, r));
    }

    [Fact]
    public async Task APeerThatNeverReadsIsClosedAsASlowConsumer()
    {
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions { SlowConsumerTimeout = TimeSpan.FromSeconds(1) }, output);
        using (var socket = await ConnectAsync(arena.EndPoint))
        {
            var frame = RawClient.Frame(new byte[65_536]);
            var sent = 0L;
            try
            {
                // Bounded: the server's queue (1 MiB) and both kernels' buffers fill long before this.
                while (sent < 512L * 1024 * 1024)
                {
                    sent += await socket.SendAsync(frame, SocketFlags.None).Within();
                }
            }
            catch (SocketException)
            {
                // The server closed the connection under the sends, as it should.
            }

            Assert.True(sent < 512L * 1024 * 1024, "The server never closed a peer that does not read.");
        }

        var reasons = await arena.EndAsync("never-reader", 1);
        Assert.Equal(DisconnectReason.SlowConsumer, Assert.Single(reasons));
    }

    [Fact]
    public async Task ConnectAndResetChurnCostsNothing()
    {
        var resets = AttackLength.Pick(2_000, 200_000);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions(), output);
        var accepted = await ResetChurn.RunAsync(arena.EndPoint, resets, parallel: 16);
        Assert.Equal(resets, accepted);

        await Waits.Until(() => arena.Handler.Disconnects.Count >= resets);
        var reasons = await arena.EndAsync("connect-and-reset churn", resets);
        Assert.All(reasons, r => Assert.Contains(r, new[] { DisconnectReason.SocketError, DisconnectReason.ClosedByPeer }));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public async Task GarbageClosesWithTheReasonTheDecoderGivesIt(int seed)
    {
        var connections = AttackLength.Pick(20, 2_000);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions(), output);
        var random = new Random(seed);
        var expected = new List<DisconnectReason>();
        for (var i = 0; i < connections; i++)
        {
            var garbage = new byte[random.Next(1, 65_536)];
            random.NextBytes(garbage);
            var verdict = Verdict(arena.Options.Format, garbage);
            expected.Add(verdict ?? DisconnectReason.ClosedByPeer);
            using var socket = await ConnectAsync(arena.EndPoint);
            await socket.SendAsync(garbage, SocketFlags.None);
            if (verdict is null)
            {
                // Only whole frames (echoed) and a partial one: the server is right to wait, so the attacker leaves.
                socket.Shutdown(SocketShutdown.Send);
            }

            await ClosedByServerAsync(socket).Within();
        }

        var reasons = await arena.EndAsync($"garbage (seed {seed})", connections);
        Assert.Equal(expected.Order(), reasons.Order());
    }

    [Theory]
    [InlineData(0xFFFF_FFFFu)]
    [InlineData((uint)LengthFieldFormat.DefaultMaxBodyLength + 1)]
    public async Task AnAnnouncedLengthOverTheMaximumClosesWithFrameTooLarge(uint announced)
    {
        var connections = AttackLength.Pick(20, 2_000);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions(), output);
        var header = new byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(header, announced);
        for (var i = 0; i < connections; i++)
        {
            using var socket = await ConnectAsync(arena.EndPoint);
            await socket.SendAsync(header, SocketFlags.None);
            await ClosedByServerAsync(socket).Within();
        }

        var reasons = await arena.EndAsync($"length 0x{announced:X8}", connections);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.FrameTooLarge, r));
    }

    [Fact]
    public async Task AMaximumFrameDribbledSlowlyIsEchoedWhole()
    {
        var maxBody = AttackLength.Pick(65_536, LengthFieldFormat.DefaultMaxBodyLength);
        var chunk = AttackLength.Pick(256, 1_024);
        var options = new TcpServerOptions { Format = LengthFieldFormat.Berth.WithMaxBodyLength(maxBody) };
        await using var arena = await AttackArena.StartAsync(options, output);
        var body = new byte[maxBody];
        new Random(5).NextBytes(body);
        var frame = RawClient.Frame(body);
        using (var socket = await ConnectAsync(arena.EndPoint))
        {
            for (var offset = 0; offset < frame.Length; offset += chunk)
            {
                await socket.SendAsync(frame.AsMemory(offset, Math.Min(chunk, frame.Length - offset)), SocketFlags.None);
                await Task.Delay(2);
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
        var attackers = AttackLength.Pick(5, 200);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions { FrameTimeout = TimeSpan.FromMilliseconds(500) }, output);
        var sockets = new List<Socket>();
        try
        {
            for (var i = 0; i < attackers; i++)
            {
                sockets.Add(await ConnectAsync(arena.EndPoint));
            }

            // Each byte resets no timer: only the frame's first byte starts its deadline. Bounded: 100 bytes at most.
            var header = RawClient.Frame(new byte[1_000]);
            for (var b = 0; b < 100 && sockets.Any(s => s.Connected); b++)
            {
                foreach (var socket in sockets)
                {
                    try
                    {
                        await socket.SendAsync(header.AsMemory(b, 1), SocketFlags.None);
                    }
                    catch (SocketException)
                    {
                        // Closed by the deadline, as it should be.
                    }
                }

                await Task.Delay(100);
            }

            await Task.WhenAll(sockets.Select(ClosedByServerAsync)).Within();
        }
        finally
        {
            sockets.ForEach(s => s.Dispose());
        }

        var reasons = await arena.EndAsync("one byte every 100 ms", attackers);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.FrameTimeout, r));
    }

    [Fact]
    public async Task APipeliningPeerThatReadsItsEchoesIsNeverDropped()
    {
        var frames = AttackLength.Pick(64, 256);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions(), output);
        var body = new byte[1_048_576];
        new Random(17).NextBytes(body);
        var frame = RawClient.Frame(body);
        using (var socket = await ConnectAsync(arena.EndPoint))
        {
            // Sends never wait for an echo; the reader checks every echo byte for byte as it comes.
            var reading = Task.Run(async () =>
            {
                var echo = new byte[frame.Length];
                for (var i = 0; i < frames; i++)
                {
                    await ReceiveExactlyAsync(socket, echo);
                    Assert.True(echo.AsSpan().SequenceEqual(frame), $"echo {i} differs");
                }
            });
            for (var i = 0; i < frames; i++)
            {
                await socket.SendAsync(frame, SocketFlags.None).Within();
            }

            await reading.Within();
            socket.Shutdown(SocketShutdown.Send);
            await ClosedByServerAsync(socket).Within();
        }

        var reasons = await arena.EndAsync($"{frames} pipelined 1 MiB frames", 1);
        Assert.Equal(DisconnectReason.ClosedByPeer, Assert.Single(reasons));
    }

    [Fact]
    public async Task AHalfClosingPeerGetsEveryEchoThenTheClose()
    {
        var connections = AttackLength.Pick(20, 2_000);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions(), output);
        var random = new Random(11);
        for (var i = 0; i < connections; i++)
        {
            var frames = Enumerable.Range(0, 10).Select(_ => RandomFrame(random)).ToArray();
            var all = frames.SelectMany(f => f).ToArray();
            using var socket = await ConnectAsync(arena.EndPoint);
            await socket.SendAsync(all, SocketFlags.None);
            socket.Shutdown(SocketShutdown.Send);
            var echo = new byte[all.Length];
            await ReceiveExactlyAsync(socket, echo).Within();
            Assert.Equal(all, echo);
            await ClosedByServerAsync(socket).Within();
        }

        var reasons = await arena.EndAsync("half-close", connections);
        Assert.All(reasons, r => Assert.Equal(DisconnectReason.ClosedByPeer, r));
    }

    [Fact]
    public async Task AFloodPastMaxConnectionsIsRefusedAndTheRestServed()
    {
        var room = AttackLength.Pick(50, 1_000);
        var flood = AttackLength.Pick(150, 5_000);
        await using var arena = await AttackArena.StartAsync(new TcpServerOptions { MaxConnections = room + 1 }, output);
        var sockets = new List<Socket>();
        try
        {
            for (var i = 0; i < flood; i++)
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                sockets.Add(socket);
                try
                {
                    await socket.ConnectAsync(arena.EndPoint).Within();
                }
                catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
                {
                    // Refused so fast that the reset overtook the connect's completion.
                }
            }

            await Waits.Until(() => arena.Handler.Disconnects.Count(d => d.Info.Reason == DisconnectReason.ConnectionLimit) == flood - room);
            await Waits.Until(() => arena.Server.ConnectionCount == room + 1);
        }
        finally
        {
            sockets.ForEach(s => s.Dispose());
        }

        var reasons = await arena.EndAsync("flood past the connection limit", flood);
        Assert.Equal(flood - room, reasons.Count(r => r == DisconnectReason.ConnectionLimit));
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
