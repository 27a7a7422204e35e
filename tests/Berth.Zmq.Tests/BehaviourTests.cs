namespace Berth.Zmq.Tests;

public sealed class BehaviourTests : IDisposable
{
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void High_water_mark_makes_a_push_without_room_refuse_further_sends()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        using var pull = _context.Create(ZmqSocketType.Pull);
        push.SendHighWatermark = 10;
        pull.ReceiveHighWatermark = 10;
        pull.Connect("inproc://hwm");
        push.Bind("inproc://hwm");

        // inproc has no kernel buffers: capacity is exactly the two watermarks together.
        var accepted = 0;
        while (push.TrySend([1]))
        {
            accepted++;
        }

        Assert.Equal(20, accepted);
        Assert.True(pull.TryReceive(new byte[1], out _));
    }

    [Fact]
    public void Pub_drops_messages_for_a_subscriber_past_its_high_water_mark()
    {
        using var pub = _context.Create(ZmqSocketType.Pub);
        using var sub = _context.Create(ZmqSocketType.Sub);
        pub.SendHighWatermark = 5;
        sub.ReceiveHighWatermark = 5;
        sub.Subscribe(string.Empty);
        sub.Connect("inproc://pub-hwm");
        pub.Bind("inproc://pub-hwm");
        SocketPairTests.WaitForSubscription(pub, sub, "probe");

        for (var i = 0; i < 100; i++)
        {
            pub.Send([(byte)i]);
        }

        var received = 0;
        while (sub.TryReceive(new byte[1], out _))
        {
            received++;
        }

        // The two watermarks bound what is kept (libzmq counts them loosely); everything past them is dropped.
        Assert.InRange(received, 1, 20);
    }

    [Fact]
    public void Monitor_reports_listening_accepted_handshake_and_disconnect()
    {
        using var rep = _context.Create(ZmqSocketType.Rep);
        using var monitor = rep.Monitor();
        var endpoint = rep.BindLoopback();
        var req = _context.Create(ZmqSocketType.Req);
        req.Connect(endpoint);
        req.Send("hi");
        Assert.Equal("hi", rep.ReceiveString());
        req.Dispose();

        var seen = ZmqMonitorEvents.None;
        while ((seen & ZmqMonitorEvents.Disconnected) == 0 && monitor.TryReceive(Endpoints.Patience, out var monitorEvent))
        {
            seen |= monitorEvent.Event;
            Assert.StartsWith("tcp://127.0.0.1:", monitorEvent.Endpoint, StringComparison.Ordinal);
        }

        var expected = ZmqMonitorEvents.Listening | ZmqMonitorEvents.Accepted | ZmqMonitorEvents.HandshakeSucceeded | ZmqMonitorEvents.Disconnected;
        Assert.Equal(expected, seen & expected);
    }

    [Fact]
    public void Curve_encrypts_req_rep_and_rejects_a_client_with_the_wrong_server_key()
    {
        Assert.True(ZmqLibrary.Has("curve"));
        var server = ZmqCurveKeyPair.Generate();
        var client = ZmqCurveKeyPair.Generate();
        using var rep = _context.Create(ZmqSocketType.Rep);
        rep.CurveServer = true;
        rep.CurveSecretKey = server.SecretKey;
        var endpoint = rep.BindLoopback();

        using var req = _context.Create(ZmqSocketType.Req);
        req.CurveServerKey = server.PublicKey;
        req.CurvePublicKey = client.PublicKey;
        req.CurveSecretKey = client.SecretKey;
        req.Connect(endpoint);
        req.Send("secret");

        using var message = new ZmqMessage();
        rep.Receive(message);
        Assert.Equal("secret", message.ToString());
        Assert.Equal(2, rep.Mechanism);
        rep.Send("sealed");
        Assert.Equal("sealed", req.ReceiveString());

        const ZmqMonitorEvents handshakeFailed =
            ZmqMonitorEvents.HandshakeFailedNoDetail | ZmqMonitorEvents.HandshakeFailedProtocol | ZmqMonitorEvents.HandshakeFailedAuth;
        using var monitor = rep.Monitor(handshakeFailed);
        using var intruder = _context.Create(ZmqSocketType.Req);
        intruder.CurveServerKey = ZmqCurveKeyPair.Generate().PublicKey;
        intruder.CurvePublicKey = client.PublicKey;
        intruder.CurveSecretKey = client.SecretKey;
        intruder.Connect(endpoint);
        intruder.Send("let me in");

        // The server itself reports the refusal: the intruder's hello is sealed for another key.
        Assert.True(monitor.TryReceive(Endpoints.Patience, out var refused), "the server never refused the intruder's handshake");
        Assert.NotEqual(ZmqMonitorEvents.None, refused.Event & handshakeFailed);

        // The legitimate client is still served, and the next request the server sees is its, not the intruder's.
        req.Send("again");
        rep.Receive(message);
        Assert.Equal("again", message.ToString());
        rep.Send("still sealed");
        Assert.Equal("still sealed", req.ReceiveString());
    }

    [Fact]
    public void Z85_round_trips_and_matches_the_specification_example()
    {
        byte[] data = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B];
        Assert.Equal("HelloWorld", Z85.Encode(data));
        Assert.Equal(data, Z85.Decode("HelloWorld"));
        var keys = ZmqCurveKeyPair.Generate();
        Assert.Equal(32, Z85.Decode(keys.PublicKey).Length);
    }

    [Fact]
    public void Proxy_forwards_requests_between_router_and_dealer_until_terminated()
    {
        var frontend = _context.Create(ZmqSocketType.Router);
        var backend = _context.Create(ZmqSocketType.Dealer);
        var control = _context.Create(ZmqSocketType.Pair);
        frontend.Bind("inproc://proxy-front");
        backend.Bind("inproc://proxy-back");
        control.Bind("inproc://proxy-control");
        var proxy = new Thread(() => ZmqProxy.Run(frontend, backend, control: control));
        proxy.Start();

        using var worker = _context.Create(ZmqSocketType.Rep);
        worker.Connect("inproc://proxy-back");
        using var client = _context.Create(ZmqSocketType.Req);
        client.Connect("inproc://proxy-front");
        using var controller = _context.Create(ZmqSocketType.Pair);
        controller.Connect("inproc://proxy-control");

        client.Send("via proxy");
        Assert.Equal("via proxy", worker.ReceiveString());
        worker.Send("answered");
        Assert.Equal("answered", client.ReceiveString());

        controller.Send("TERMINATE");
        Assert.True(proxy.Join(Endpoints.Patience));
        frontend.Dispose();
        backend.Dispose();
        control.Dispose();
    }

    [Fact]
    public void Options_round_trip_through_libzmq()
    {
        using var socket = _context.CreateSocket(ZmqSocketType.Dealer);
        socket.SendHighWatermark = 123;
        socket.ReceiveHighWatermark = 456;
        socket.Linger = TimeSpan.FromMilliseconds(250);
        socket.SendTimeout = TimeSpan.FromSeconds(2);
        socket.ReceiveTimeout = Timeout.InfiniteTimeSpan;
        socket.RoutingId = [1, 2, 3];
        socket.ReconnectInterval = TimeSpan.FromMilliseconds(150);
        socket.ReconnectIntervalMax = TimeSpan.FromSeconds(5);
        socket.HeartbeatInterval = TimeSpan.FromSeconds(1);
        socket.HeartbeatTimeout = TimeSpan.FromSeconds(3);
        socket.HeartbeatTimeToLive = TimeSpan.FromSeconds(10);
        socket.HandshakeInterval = TimeSpan.FromSeconds(7);
        socket.ConnectTimeout = TimeSpan.FromSeconds(4);
        socket.TcpKeepalive = 1;
        socket.TcpKeepaliveCount = 5;
        socket.TcpKeepaliveIdle = 60;
        socket.TcpKeepaliveInterval = 10;
        socket.Immediate = true;
        socket.Ipv6 = true;
        socket.Backlog = 50;
        socket.MaxMessageSize = 1 << 20;
        socket.SendBufferSize = 65536;
        socket.ReceiveBufferSize = 131072;
        socket.Conflate = true;
        socket.ZeroCopyThreshold = 4096;
        var keys = ZmqCurveKeyPair.Generate();
        socket.CurvePublicKey = keys.PublicKey;
        socket.CurveSecretKey = keys.SecretKey;
        socket.CurveServerKey = keys.PublicKey;

        Assert.Equal(123, socket.SendHighWatermark);
        Assert.Equal(456, socket.ReceiveHighWatermark);
        Assert.Equal(TimeSpan.FromMilliseconds(250), socket.Linger);
        Assert.Equal(TimeSpan.FromSeconds(2), socket.SendTimeout);
        Assert.Equal(Timeout.InfiniteTimeSpan, socket.ReceiveTimeout);
        Assert.Equal([1, 2, 3], socket.RoutingId);
        Assert.Equal(TimeSpan.FromMilliseconds(150), socket.ReconnectInterval);
        Assert.Equal(TimeSpan.FromSeconds(5), socket.ReconnectIntervalMax);
        Assert.Equal(TimeSpan.FromSeconds(1), socket.HeartbeatInterval);
        Assert.Equal(TimeSpan.FromSeconds(3), socket.HeartbeatTimeout);
        Assert.Equal(TimeSpan.FromSeconds(10), socket.HeartbeatTimeToLive);
        Assert.Equal(TimeSpan.FromSeconds(7), socket.HandshakeInterval);
        Assert.Equal(TimeSpan.FromSeconds(4), socket.ConnectTimeout);
        Assert.Equal(1, socket.TcpKeepalive);
        Assert.Equal(5, socket.TcpKeepaliveCount);
        Assert.Equal(60, socket.TcpKeepaliveIdle);
        Assert.Equal(10, socket.TcpKeepaliveInterval);
        Assert.True(socket.Immediate);
        Assert.True(socket.Ipv6);
        Assert.Equal(50, socket.Backlog);
        Assert.Equal(1 << 20, socket.MaxMessageSize);
        Assert.Equal(65536, socket.SendBufferSize);
        Assert.Equal(131072, socket.ReceiveBufferSize);
        Assert.True(socket.Conflate);
        Assert.Equal(4096, socket.ZeroCopyThreshold);
        Assert.Equal(keys.PublicKey, socket.CurvePublicKey);
        Assert.Equal(keys.SecretKey, socket.CurveSecretKey);
        Assert.Equal(keys.PublicKey, socket.CurveServerKey);
        Assert.Equal(ZmqSocketType.Dealer, socket.Type);
        Assert.Throws<ArgumentOutOfRangeException>(() => socket.Linger = TimeSpan.FromSeconds(-5));
    }

    [Fact]
    public void Context_reports_its_settings_and_the_library_version()
    {
        using var context = new ZmqContext(ioThreads: 2, maxSockets: 64);
        Assert.Equal(2, context.IoThreads);
        Assert.Equal(64, context.MaxSockets);
        Assert.True(ZmqLibrary.Version >= new Version(4, 3, 0));
    }
}
