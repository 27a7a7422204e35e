using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Xunit.Abstractions;

namespace Berth.Zmq.Tests;

/// <summary>
/// The high-water marks as the bound on what a flood can queue: many DEALERs bursting at one ROUTER that does not read
/// yet, and a PUSH whose peer never comes. Counts are asserted, never timings.
/// </summary>
public sealed class FloodTests(ITestOutputHelper output)
{
    private const int Dealers = 200;
    private const int Burst = 100;
    private const int FrameSize = 16 * 1024;
    private const int HighWatermark = 5;

    /// <summary>Kernel socket buffers (set to 64 KiB each way, which Linux doubles) hold frames beyond both HWMs.</summary>
    private const int KernelSlackFrames = 4 * 2 * 64 * 1024 / FrameSize;

    [Fact]
    public void A_router_flooded_by_many_dealers_queues_no_more_than_its_high_water_marks_and_receives_every_frame_intact()
    {
        using var context = new ZmqContext();
        using var router = context.Create(ZmqSocketType.Router);
        router.ReceiveHighWatermark = HighWatermark;
        router.ReceiveBufferSize = 64 * 1024;
        var endpoint = router.BindLoopback();
        var before = ResidentBytes();

        var dealers = new ZmqSocket[Dealers];
        var accepted = new int[Dealers];
        try
        {
            for (var d = 0; d < Dealers; d++)
            {
                dealers[d] = context.Create(ZmqSocketType.Dealer);
                dealers[d].SendHighWatermark = HighWatermark;
                dealers[d].SendBufferSize = 64 * 1024;
                dealers[d].RoutingId = BitConverter.GetBytes(d);
                dealers[d].Connect(endpoint);
            }

            // Every dealer is connected before the flood, so that frames pass through to the router's pipes.
            using (var hello = new ZmqMessage())
            {
                for (var d = 0; d < Dealers; d++)
                {
                    dealers[d].Send("hello"u8);
                }

                for (var d = 0; d < 2 * Dealers; d++)
                {
                    router.Receive(hello);
                }
            }

            // The flood: every dealer offers its whole burst while the router reads nothing; the HWMs refuse the rest.
            var frame = new byte[FrameSize];
            for (var d = 0; d < Dealers; d++)
            {
                while (accepted[d] < Burst)
                {
                    Stamp(frame, d, accepted[d]);
                    if (!dealers[d].TrySend(frame))
                    {
                        break;
                    }

                    accepted[d]++;
                }
            }

            var grown = ResidentBytes() - before;
            output.WriteLine($"accepted per dealer: min {accepted.Min()}, max {accepted.Max()}, total {accepted.Sum()} of {Dealers * Burst} offered; resident growth {grown >> 20} MiB");
            var queuedBound = (long)Dealers * ((2 * HighWatermark) + KernelSlackFrames) * FrameSize;
            var offered = (long)Dealers * Burst * FrameSize;
            Assert.All(accepted, count => Assert.InRange(count, 1, (2 * HighWatermark) + KernelSlackFrames));
            Assert.True(
                grown < queuedBound + (64L << 20),
                $"resident memory grew {grown >> 20} MiB for {offered >> 20} MiB offered; bound {(queuedBound >> 20) + 64} MiB");

            // Everything accepted arrives, intact and in order per dealer, routed by the dealer's id.
            var next = new int[Dealers];
            var total = accepted.Sum();
            using var id = new ZmqMessage();
            using var body = new ZmqMessage();
            for (var i = 0; i < total; i++)
            {
                router.Receive(id);
                Assert.True(id.More, "a routed frame has an id and a body");
                router.Receive(body);
                var dealer = BitConverter.ToInt32(id.Data);
                Assert.Equal(FrameSize, body.Size);
                Assert.True(Verify(body.Data, dealer, next[dealer]), $"frame {next[dealer]} of dealer {dealer} is corrupt");
                next[dealer]++;
            }

            Assert.Equal(accepted, next);
            Assert.False(router.TryReceive(id));
        }
        finally
        {
            foreach (var dealer in dealers)
            {
                dealer?.Dispose();
            }
        }
    }

    [Fact]
    public void A_push_whose_peer_never_comes_accepts_its_high_water_mark_then_refuses_and_times_out()
    {
        using var context = new ZmqContext();
        using var push = context.Create(ZmqSocketType.Push);
        push.SendHighWatermark = 50;
        push.SendTimeout = TimeSpan.FromMilliseconds(50);
        push.Connect($"tcp://127.0.0.1:{UnusedPort()}");

        var accepted = 0;
        while (push.TrySend([1, 2, 3]))
        {
            accepted++;
            Assert.True(accepted <= 10_000, "the high-water mark never refused a send");
        }

        output.WriteLine($"accepted {accepted} frames at SNDHWM 50 with no peer");

        // Without a connection the frames wait in the pipe to the peer, which holds exactly SNDHWM.
        Assert.Equal(50, accepted);
        Assert.Throws<TimeoutException>(() => push.Send([4, 5, 6]));
        Assert.False(push.TrySend([7]));
    }

    private static long ResidentBytes()
    {
        using var process = Process.GetCurrentProcess();
        process.Refresh();
        return process.WorkingSet64;
    }

    /// <summary>A loopback port with nobody listening: bound by the OS, then released.</summary>
    private static int UnusedPort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    private static void Stamp(Span<byte> frame, int dealer, int sequence)
    {
        BinaryPrimitives.WriteInt32LittleEndian(frame, dealer);
        BinaryPrimitives.WriteInt32LittleEndian(frame[4..], sequence);
        frame[8..].Fill((byte)(dealer ^ sequence));
    }

    private static bool Verify(ReadOnlySpan<byte> frame, int dealer, int sequence) =>
        BinaryPrimitives.ReadInt32LittleEndian(frame) == dealer
        && BinaryPrimitives.ReadInt32LittleEndian(frame[4..]) == sequence
        && !frame[8..].ContainsAnyExcept((byte)(dealer ^ sequence));
}
