using System.Text;
using NetMQ;
using NetMQ.Sockets;

namespace Berth.Zmq.Tests.Interop;

/// <summary>
/// Berth.Zmq (over libzmq) against NetMQ, an independent ZeroMQ implementation in C#, over TCP: every pattern in
/// both directions, either side binding, with multipart messages whose last frame is 1 MiB.
/// </summary>
/// <remarks>NetMQ's default linger is zero: its sending sockets set one so that disposing them keeps what is queued.</remarks>
// Zero-copy sends count their releases in one process-wide counter that a test here asserts exactly.
[Collection("zero-copy release counter")]
public sealed class NetMqInteropTests : IDisposable
{
    private const int Count = 3;
    private const int LargeFrame = 1024 * 1024;
    private static readonly TimeSpan Patience = Endpoints.Patience;
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    public static TheoryData<bool, bool> SenderAndBinder => new() { { true, true }, { true, false }, { false, true }, { false, false } };

    [Theory]
    [MemberData(nameof(SenderAndBinder))]
    public void Push_pull_carries_multipart_and_large_frames(bool berthPushes, bool berthBinds)
    {
        using var berth = _context.Create(berthPushes ? ZmqSocketType.Push : ZmqSocketType.Pull);
        using NetMQSocket netMq = berthPushes ? new PullSocket() : new PushSocket();
        netMq.Options.Linger = Patience;
        Join(berth, netMq, berthBinds);

        for (var i = 0; i < Count; i++)
        {
            if (berthPushes)
            {
                SendFromBerth(berth, Frames("berth", i));
                AssertFrames(Frames("berth", i), ReceiveAtNetMq(netMq));
            }
            else
            {
                Assert.True(netMq.TrySendMultipartBytes(Patience, Frames("netmq", i)));
                AssertFrames(Frames("netmq", i), ReceiveAtBerth(berth));
            }
        }
    }

    [Theory]
    [MemberData(nameof(SenderAndBinder))]
    public void Req_rep_round_trips_multipart_and_large_frames(bool berthRequests, bool berthBinds)
    {
        using var berth = _context.Create(berthRequests ? ZmqSocketType.Req : ZmqSocketType.Rep);
        using NetMQSocket netMq = berthRequests ? new ResponseSocket() : new RequestSocket();
        netMq.Options.Linger = Patience;
        Join(berth, netMq, berthBinds);

        for (var i = 0; i < Count; i++)
        {
            var request = Frames("request", i);
            var reply = Frames("reply", i);
            if (berthRequests)
            {
                SendFromBerth(berth, request);
                AssertFrames(request, ReceiveAtNetMq(netMq));
                Assert.True(netMq.TrySendMultipartBytes(Patience, reply));
                AssertFrames(reply, ReceiveAtBerth(berth));
            }
            else
            {
                Assert.True(netMq.TrySendMultipartBytes(Patience, request));
                AssertFrames(request, ReceiveAtBerth(berth));
                SendFromBerth(berth, reply);
                AssertFrames(reply, ReceiveAtNetMq(netMq));
            }
        }
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Dealer_router_routes_replies_to_the_dealer_by_routing_id(bool berthRoutes)
    {
        var dealerId = "dealer-1"u8.ToArray();
        using var berth = _context.Create(berthRoutes ? ZmqSocketType.Router : ZmqSocketType.Dealer);
        using NetMQSocket netMq = berthRoutes ? new DealerSocket() : new RouterSocket();
        netMq.Options.Linger = Patience;
        if (berthRoutes)
        {
            netMq.Options.Identity = dealerId;
            netMq.Connect(berth.BindLoopback());
        }
        else
        {
            berth.RoutingId = dealerId;
            berth.Connect($"tcp://127.0.0.1:{netMq.BindRandomPort("tcp://127.0.0.1")}");
        }

        for (var i = 0; i < Count; i++)
        {
            var request = Frames("request", i);
            var reply = Frames("reply", i);
            if (berthRoutes)
            {
                Assert.True(netMq.TrySendMultipartBytes(Patience, request));
                var received = ReceiveAtBerth(berth);
                Assert.Equal(dealerId, received[0]);
                AssertFrames(request, received.Skip(1).ToList());
                SendFromBerth(berth, [dealerId, .. reply]);
                AssertFrames(reply, ReceiveAtNetMq(netMq));
            }
            else
            {
                SendFromBerth(berth, request);
                var received = ReceiveAtNetMq(netMq);
                Assert.Equal(dealerId, received[0]);
                AssertFrames(request, received.Skip(1).ToList());
                Assert.True(netMq.TrySendMultipartBytes(Patience, [dealerId, .. reply]));
                AssertFrames(reply, ReceiveAtBerth(berth));
            }
        }
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Pub_sub_delivers_the_subscribed_topic_only(bool berthPublishes)
    {
        using var berth = _context.Create(berthPublishes ? ZmqSocketType.Pub : ZmqSocketType.Sub);
        using NetMQSocket netMq = berthPublishes ? new SubscriberSocket() : new PublisherSocket();
        netMq.Options.Linger = Patience;
        if (berthPublishes)
        {
            ((SubscriberSocket)netMq).Subscribe("news");
            netMq.Connect(berth.BindLoopback());
        }
        else
        {
            berth.Subscribe("news");
            berth.Connect($"tcp://127.0.0.1:{netMq.BindRandomPort("tcp://127.0.0.1")}");
        }

        // A subscription travels to the publisher after the connection: publish a probe until one arrives.
        var probe = Frames("news-probe", 0);
        var deadline = DateTime.UtcNow + Patience;
        var joined = false;
        while (!joined && DateTime.UtcNow < deadline)
        {
            Publish(berth, netMq, berthPublishes, [Encoding.UTF8.GetBytes("other"), [1]]);
            Publish(berth, netMq, berthPublishes, probe);
            joined = TryReceive(berth, netMq, berthPublishes, TimeSpan.FromMilliseconds(100)) is not null;
        }

        Assert.True(joined, "the subscription never reached the publisher");
        for (var i = 0; i < Count; i++)
        {
            Publish(berth, netMq, berthPublishes, [Encoding.UTF8.GetBytes("other"), [1]]);
            Publish(berth, netMq, berthPublishes, Frames("news", i));
        }

        // Probes published before the first one arrived may still be queued; every other frame is news, in order.
        var next = 0;
        while (next < Count)
        {
            var frames = TryReceive(berth, netMq, berthPublishes, Patience) ?? throw new TimeoutException($"news {next} never arrived");
            var topic = Encoding.UTF8.GetString(frames[0]);
            Assert.StartsWith("news", topic);
            if (!topic.StartsWith("news-probe", StringComparison.Ordinal))
            {
                AssertFrames(Frames("news", next++), frames);
            }
        }
    }

    /// <summary>A text frame, an empty frame and a 1 MiB frame whose bytes depend on the message.</summary>
    private static List<byte[]> Frames(string head, int index)
    {
        var large = new byte[LargeFrame];
        for (var i = 0; i < large.Length; i++)
        {
            large[i] = (byte)((i * 31) + index);
        }

        return [Encoding.UTF8.GetBytes($"{head}-{index}"), [], large];
    }

    private static void AssertFrames(List<byte[]> expected, List<byte[]> actual)
    {
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.True(expected[i].AsSpan().SequenceEqual(actual[i]), $"frame {i} differs ({expected[i].Length} B expected, {actual[i].Length} B received)");
        }
    }

    private static void Join(ZmqSocket berth, NetMQSocket netMq, bool berthBinds)
    {
        if (berthBinds)
        {
            netMq.Connect(berth.BindLoopback());
        }
        else
        {
            berth.Connect($"tcp://127.0.0.1:{netMq.BindRandomPort("tcp://127.0.0.1")}");
        }
    }

    private static void SendFromBerth(ZmqSocket socket, List<byte[]> frames)
    {
        socket.Linger = Patience;
        socket.SendMultipart([.. frames.Select(f => (ReadOnlyMemory<byte>)f)]);
    }

    private static List<byte[]> ReceiveAtBerth(ZmqSocket socket)
    {
        var frames = new List<byte[]>();
        socket.ReceiveMultipart(frames);
        return frames;
    }

    private static List<byte[]> ReceiveAtNetMq(NetMQSocket socket)
    {
        var frames = new List<byte[]>();
        Assert.True(socket.TryReceiveMultipartBytes(Patience, ref frames), "NetMQ received nothing in time");
        return frames;
    }

    private static void Publish(ZmqSocket berth, NetMQSocket netMq, bool berthPublishes, List<byte[]> frames)
    {
        if (berthPublishes)
        {
            SendFromBerth(berth, frames);
        }
        else
        {
            Assert.True(netMq.TrySendMultipartBytes(Patience, frames));
        }
    }

    private static List<byte[]>? TryReceive(ZmqSocket berth, NetMQSocket netMq, bool berthPublishes, TimeSpan wait)
    {
        if (berthPublishes)
        {
            var frames = new List<byte[]>();
            return netMq.TryReceiveMultipartBytes(wait, ref frames) ? frames : null;
        }

        berth.ReceiveTimeout = wait;
        try
        {
            return ReceiveAtBerth(berth);
        }
        catch (TimeoutException)
        {
            return null;
        }
    }
}
