using System.Net.Sockets;
using System.Text;

namespace Berth.Zmq.Tests;

public sealed class SocketPairTests : IDisposable
{
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void Req_and_rep_exchange_requests_and_replies_in_lock_step()
    {
        using var rep = _context.Create(ZmqSocketType.Rep);
        using var req = _context.Create(ZmqSocketType.Req);
        req.Connect(rep.BindLoopback());

        for (var i = 0; i < 3; i++)
        {
            req.Send($"ping {i}");
            Assert.Equal($"ping {i}", rep.ReceiveString());
            rep.Send($"pong {i}");
            Assert.Equal($"pong {i}", req.ReceiveString());
        }
    }

    [Fact]
    public void Req_refuses_a_second_request_before_the_reply()
    {
        using var rep = _context.Create(ZmqSocketType.Rep);
        using var req = _context.Create(ZmqSocketType.Req);
        req.Connect(rep.BindLoopback());
        req.Send("one");

        var error = Assert.Throws<ZmqException>(() => req.Send("two"));
        Assert.Contains("Req", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Sub_receives_only_the_topics_it_subscribed_to()
    {
        using var pub = _context.Create(ZmqSocketType.Pub);
        using var sub = _context.Create(ZmqSocketType.Sub);
        sub.Connect(pub.BindLoopback());
        sub.Subscribe("weather.");
        sub.Subscribe("news");

        // Subscriptions travel to the publisher asynchronously: publish until the first one is seen.
        WaitForSubscription(pub, sub, "weather.probe");
        WaitForSubscription(pub, sub, "news.probe");
        pub.Send("sports goal");
        pub.Send("weather.oslo rain");
        pub.Send("newsflash");
        Assert.Equal("weather.oslo rain", sub.ReceiveString());
        Assert.Equal("newsflash", sub.ReceiveString());

        sub.Unsubscribe("news");
        pub.Send("news again");
        pub.Send("weather.end");
        Assert.Equal("weather.end", sub.ReceiveString());
        Assert.False(sub.TryReceive(new byte[64], out _));
    }

    [Fact]
    public void Push_spreads_messages_over_pulls_round_robin()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull1 = _context.Create(ZmqSocketType.Pull);
        using var pull2 = _context.Create(ZmqSocketType.Pull);
        var endpoint = push.BindLoopback();

        // A PUSH only round-robins over peers it has finished the handshake with.
        using var monitor = push.Monitor(ZmqMonitorEvents.HandshakeSucceeded);
        pull1.Connect(endpoint);
        pull2.Connect(endpoint);
        Assert.True(monitor.TryReceive(Endpoints.Patience, out _));
        Assert.True(monitor.TryReceive(Endpoints.Patience, out _));

        for (var i = 0; i < 10; i++)
        {
            push.Send([(byte)i]);
        }

        var buffer = new byte[1];
        var received = new List<int>();
        for (var i = 0; i < 5; i++)
        {
            pull1.Receive(buffer);
            received.Add(buffer[0]);
            pull2.Receive(buffer);
            received.Add(buffer[0]);
        }

        Assert.Equal(Enumerable.Range(0, 10), received.Order());
    }

    [Fact]
    public void Router_sees_dealer_identities_and_replies_to_each()
    {
        using var router = _context.Create(ZmqSocketType.Router);
        using var alice = _context.Create(ZmqSocketType.Dealer);
        using var bob = _context.Create(ZmqSocketType.Dealer);
        router.RouterMandatory = true;
        alice.RoutingId = "alice"u8.ToArray();
        bob.RoutingId = "bob"u8.ToArray();
        var endpoint = router.BindLoopback();
        alice.Connect(endpoint);
        bob.Connect(endpoint);

        alice.Send("from alice");
        bob.Send("from bob");
        var frames = new List<byte[]>();
        var seen = new Dictionary<string, string>();
        for (var i = 0; i < 2; i++)
        {
            router.ReceiveMultipart(frames);
            seen[Encoding.UTF8.GetString(frames[0])] = Encoding.UTF8.GetString(frames[1]);
        }

        Assert.Equal("from alice", seen["alice"]);
        Assert.Equal("from bob", seen["bob"]);

        router.SendMultipart("bob"u8.ToArray(), "hi bob"u8.ToArray());
        router.SendMultipart("alice"u8.ToArray(), "hi alice"u8.ToArray());
        Assert.Equal("hi alice", alice.ReceiveString());
        Assert.Equal("hi bob", bob.ReceiveString());
        Assert.Throws<ZmqException>(() => router.SendMultipart("carol"u8.ToArray(), "nobody"u8.ToArray()));
    }

    [Fact]
    public void Pair_talks_both_ways_over_inproc()
    {
        using var left = _context.Create(ZmqSocketType.Pair);
        using var right = _context.Create(ZmqSocketType.Pair);
        left.Bind("inproc://pair-test");
        right.Connect("inproc://pair-test");

        left.Send("left to right");
        Assert.Equal("left to right", right.ReceiveString());
        right.Send("right to left");
        Assert.Equal("right to left", left.ReceiveString());
    }

    [Fact]
    public void XPub_receives_subscriptions_and_XSub_sends_them_as_messages()
    {
        using var xpub = _context.Create(ZmqSocketType.XPub);
        using var xsub = _context.Create(ZmqSocketType.XSub);
        xsub.Connect(xpub.BindLoopback());

        xsub.Send([1, .. "topic"u8]);
        var subscription = xpub.ReceiveBytes();
        Assert.Equal((byte)1, subscription[0]);
        Assert.Equal("topic", Encoding.UTF8.GetString(subscription, 1, subscription.Length - 1));

        xpub.Send("topic data");
        xpub.Send("other data");
        Assert.Equal("topic data", xsub.ReceiveString());

        xsub.Send([0, .. "topic"u8]);
        Assert.Equal((byte)0, xpub.ReceiveBytes()[0]);
    }

    [Fact]
    public void Stream_exchanges_raw_bytes_with_a_plain_tcp_client()
    {
        using var stream = _context.Create(ZmqSocketType.Stream);
        var endpoint = stream.BindLoopback();
        var port = int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
        using var client = new TcpClient();
        client.Connect("127.0.0.1", port);
        var network = client.GetStream();

        // libzmq announces a new raw connection as its routing id followed by an empty frame.
        var frames = new List<byte[]>();
        stream.ReceiveMultipart(frames);
        var peer = frames[0];
        Assert.Empty(frames[1]);

        network.Write("hello raw"u8);
        var received = new List<byte>();
        while (received.Count < 9)
        {
            stream.ReceiveMultipart(frames);
            Assert.Equal(peer, frames[0]);
            received.AddRange(frames[1]);
        }

        Assert.Equal("hello raw", Encoding.UTF8.GetString(received.ToArray()));
        stream.SendMultipart(peer, "raw reply"u8.ToArray());
        var reply = new byte[9];
        network.ReadExactly(reply);
        Assert.Equal("raw reply", Encoding.UTF8.GetString(reply));
    }

    internal static void WaitForSubscription(ZmqSocket pub, ZmqSocket sub, string probe)
    {
        var poller = new ZmqPoller();
        poller.Add(sub, ZmqPollEvents.In);
        for (var attempt = 0; attempt < 500; attempt++)
        {
            pub.Send(probe);
            if (poller.Poll(TimeSpan.FromMilliseconds(20)) > 0)
            {
                while (sub.TryReceive(new byte[256], out _))
                {
                }

                return;
            }
        }

        throw new TimeoutException("the subscription never reached the publisher");
    }
}
