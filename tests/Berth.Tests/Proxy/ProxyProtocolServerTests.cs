using System.Net;
using System.Net.Sockets;
using Berth.Proxy;
using Berth.Connections;
using Berth.Tests.Tcp;
using Berth.Tests.Tcp.Hostile;
using static Berth.Tests.Proxy.SpecHeaders;

namespace Berth.Tests.Proxy;

/// <summary>
/// The PROXY protocol over real loopback sockets. The trusted proxy is 127.0.0.1; clients that must be told apart
/// from it connect from 127.0.0.2 (Linux routes all of 127.0.0.0/8 to loopback), so a direct, untrusted client and a
/// proxy share one listener as they would behind a balancer.
/// </summary>
public sealed class ProxyProtocolServerTests
{
    private static readonly IPAddress Proxy = IPAddress.Loopback;
    private static readonly IPAddress Elsewhere = IPAddress.Parse("127.0.0.2");

    public static TheoryData<string, TransportKind> HeadersOverEveryTransport()
    {
        var data = new TheoryData<string, TransportKind>();
        // A Unix socket has no address to trust: a header there is refused (see DEPLOY.md).
        foreach (var kind in Enum.GetValues<TransportKind>().Where(k => k != TransportKind.Unix))
        {
            data.Add("v1", kind);
            data.Add("v2", kind);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(HeadersOverEveryTransport))]
    public async Task The_original_client_becomes_the_remote_endpoint_and_frames_follow_the_header(string version, TransportKind kind)
    {
        var handler = new RecordingHandler();
        var options = Options().On(kind);
        await using (var server = EchoTests.Start(options, handler))
        {
            var header = version == "v1"
                ? V1("PROXY TCP4 203.0.113.9 10.0.0.1 41000 7000\r\n")
                : V2(0x21, 0x11, Tcp4("203.0.113.9", "10.0.0.1", 41000, 7000), Tlv(0x01, "berth"));
            using var client = new RawClient(server.EndPoint, kind, header, Proxy);
            client.SendFrame([1, 2, 3]);
            Assert.Equal(new byte[] { 1, 2, 3 }, client.ReceiveFrame());
            var connection = await handler.FirstConnection.Within();
            Assert.Equal(new IPEndPoint(IPAddress.Parse("203.0.113.9"), 41000), connection.RemoteEndPoint);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task A_v2_local_header_keeps_the_real_peer()
    {
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(Options(), handler);
        using var client = new RawClient(server.EndPoint, preamble: V2(0x20, 0x00, []), from: Proxy);
        client.SendFrame([9]);
        Assert.Equal(new byte[] { 9 }, client.ReceiveFrame());
        var connection = await handler.FirstConnection.Within();
        Assert.Equal(client.Socket.LocalEndPoint, connection.RemoteEndPoint);
    }

    [Fact]
    public async Task A_header_split_across_reads_is_read_whole_and_what_follows_it_is_framed()
    {
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(Options(), handler);
        using var client = new RawClient(server.EndPoint, from: Proxy);
        var header = V2(0x21, 0x21, Tcp6("2001:db8::5", "2001:db8::1", 5555, 7000), Tlv(0x05, "id"));
        foreach (var b in header)
        {
            client.Send([b]);
            await Task.Delay(2);
        }

        client.SendFrame([4, 5]);
        Assert.Equal(new byte[] { 4, 5 }, client.ReceiveFrame());
        Assert.Equal(new IPEndPoint(IPAddress.Parse("2001:db8::5"), 5555), (await handler.FirstConnection.Within()).RemoteEndPoint);
    }

    [Fact]
    public async Task An_untrusted_client_without_a_header_is_served_as_itself()
    {
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(Options(), handler);
        using var client = new RawClient(server.EndPoint, from: Elsewhere);
        client.SendFrame([6]);
        Assert.Equal(new byte[] { 6 }, client.ReceiveFrame());
        Assert.Equal(client.Socket.LocalEndPoint, (await handler.FirstConnection.Within()).RemoteEndPoint);
    }

    [Fact]
    public async Task Under_the_optional_policy_a_trusted_proxy_may_omit_the_header()
    {
        var options = Options();
        options.ProxyProtocol!.Policy = ProxyHeaderPolicy.Optional;
        await using var server = EchoTests.Start(options);
        using var client = new RawClient(server.EndPoint, from: Proxy);
        client.SendFrame([8]);
        Assert.Equal(new byte[] { 8 }, client.ReceiveFrame());
    }

    [Fact]
    public async Task The_header_callback_sees_the_tlvs_and_may_refuse()
    {
        var options = Options();
        var seen = new List<string>();
        options.ProxyProtocol!.OnHeader = (EndPoint? proxy, in ProxyHeader header) =>
        {
            seen.Add($"{proxy} {System.Text.Encoding.ASCII.GetString(header.Authority)}");
            return header.Authority.SequenceEqual("good.example"u8);
        };
        var handler = new RecordingHandler();
        await using var server = EchoTests.Start(options, handler);
        using (var accepted = new RawClient(server.EndPoint, preamble: V2(0x21, 0x11, Tcp4("1.1.1.1", "2.2.2.2", 1, 2), Tlv(0x02, "good.example")), from: Proxy))
        {
            accepted.SendFrame([1]);
            Assert.Equal(new byte[] { 1 }, accepted.ReceiveFrame());
        }

        using var refused = new RawClient(server.EndPoint, preamble: V2(0x21, 0x11, Tcp4("1.1.1.1", "2.2.2.2", 1, 2), Tlv(0x02, "bad.example")), from: Proxy);
        Assert.True(refused.WaitForClose());
        await Waits.Until(() => handler.Disconnects.Any(d => d.Info.Reason == DisconnectReason.ProxyHeaderRejected));
        Assert.Equal(2, seen.Count);
        Assert.EndsWith(" good.example", seen[0]);
    }

    [Fact]
    public async Task Connections_waiting_for_their_header_count_toward_the_connection_limit()
    {
        var handler = new RecordingHandler();
        var options = Options();
        options.MaxConnections = 2;
        await using var server = EchoTests.Start(options, handler);
        using var first = new RawClient(server.EndPoint, from: Proxy);
        using var second = new RawClient(server.EndPoint, from: Proxy);
        using var third = new RawClient(server.EndPoint, from: Proxy);
        Assert.True(third.WaitForClose());
        await Waits.Until(() => !handler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.ConnectionLimit, Assert.Single(handler.Disconnects).Info.Reason);

        first.Send(V1("PROXY TCP4 192.0.2.1 192.0.2.2 1 2\r\n"));
        first.SendFrame([3]);
        Assert.Equal(new byte[] { 3 }, first.ReceiveFrame());
    }

    [Fact]
    public async Task Stopping_closes_connections_still_waiting_for_their_header_without_waiting_for_its_deadline()
    {
        var handler = new RecordingHandler();
        var options = Options();
        options.ProxyProtocol!.HeaderTimeout = TimeSpan.FromHours(1);
        options.MaxConnections = 1;
        var server = EchoTests.Start(options, handler);
        using var waiting = new RawClient(server.EndPoint, from: Proxy);
        waiting.Send(V1("PROXY TCP4 ")); // a beginning, so the stage has taken bytes and waits for the rest

        // The next connection is over the limit only once the first is accepted and in its header stage.
        using (var probe = new RawClient(server.EndPoint, from: Proxy))
        {
            Assert.True(probe.WaitForClose());
        }

        await server.StopAsync().Within();
        Assert.True(waiting.WaitForClose());
        await Waits.Until(() => handler.Disconnects.Count == 2);
        Assert.Equal(
            [DisconnectReason.ConnectionLimit, DisconnectReason.ServerStopping],
            handler.Disconnects.Select(d => d.Info.Reason).Order());
        Assert.Empty(handler.Connections);
        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public void Requiring_the_header_without_trusted_proxies_is_refused_unless_chosen_explicitly()
    {
        var options = new BerthServerOptions { ProxyProtocol = new ProxyProtocolOptions() };
        Assert.Throws<ArgumentException>(() => new BerthServer(options, new EchoHandler()));
        options.ProxyProtocol.TrustEveryAddress = true;
        _ = new BerthServer(options, new EchoHandler());
    }

    public static TheoryData<string> Attacks => new(AttackBytes().Keys);

    /// <summary>
    /// Each attack repeats on fresh connections until the witness, a direct client on the same listener, has echoed
    /// 20 frames during it; the attack must still be under way then. Every attacking connection ends with the
    /// attack's reason, and the pool gets every buffer back.
    /// </summary>
    [Theory]
    [MemberData(nameof(Attacks))]
    public async Task A_bad_header_closes_only_its_connection_with_its_reason_while_a_witness_keeps_echoing(string attack)
    {
        var (bytes, from, reason) = AttackBytes()[attack];
        var handler = new RecordingHandler();
        var options = Options();
        await using (var server = EchoTests.Start(options, handler))
        {
            await using var witness = await Witness.StartAsync(server.EndPoint, from: Elsewhere);
            await witness.EchoesMoreAsync(5);
            using var stop = new CancellationTokenSource();
            var attacks = 0;
            var attacking = Task.Run(() =>
            {
                while (!stop.IsCancellationRequested)
                {
                    using var attacker = new RawClient(server.EndPoint, preamble: bytes, from: from);
                    Assert.True(attacker.WaitForClose());
                    Interlocked.Increment(ref attacks);
                }
            });

            await Waits.Until(() => Volatile.Read(ref attacks) >= 3 || attacking.IsCompleted);
            await witness.EchoesMoreAsync(20);
            Assert.False(attacking.IsCompleted, attacking.Exception?.ToString());
            Assert.Null(witness.Error);
            await stop.CancelAsync();
            await attacking.Within();
            await Waits.Until(() => handler.Disconnects.Count >= Volatile.Read(ref attacks));
            Assert.All(handler.Disconnects, d => Assert.Equal(reason, d.Info.Reason));
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task A_header_dribbled_past_its_deadline_closes_while_a_witness_keeps_echoing()
    {
        var handler = new RecordingHandler();
        var options = Options();
        options.ProxyProtocol!.HeaderTimeout = TimeSpan.FromSeconds(2);
        options.FrameTimeout = TimeSpan.FromMinutes(1);
        await using var server = EchoTests.Start(options, handler);
        await using var witness = await Witness.StartAsync(server.EndPoint, from: Elsewhere);
        using var dribbler = new RawClient(server.EndPoint, from: Proxy);
        var header = V1("PROXY TCP4 192.0.2.1 192.0.2.2 1 2\r\n");
        var closed = Task.Run(() =>
        {
            // One byte every 100 ms: the stream keeps moving but would take 3.4 s to finish, past the 2 s deadline.
            foreach (var b in header[..^2])
            {
                try
                {
                    dribbler.Send([b]);
                }
                catch (SocketException)
                {
                    break;
                }

                Thread.Sleep(100);
            }

            return dribbler.WaitForClose();
        });

        await witness.EchoesMoreAsync(20);
        Assert.False(closed.IsCompleted);
        Assert.Null(witness.Error);
        Assert.True(await closed.Within());
        await Waits.Until(() => !handler.Disconnects.IsEmpty);
        Assert.Equal(DisconnectReason.ProxyHeaderTimeout, Assert.Single(handler.Disconnects).Info.Reason);
    }

    private static Dictionary<string, (byte[] Bytes, IPAddress From, DisconnectReason Reason)> AttackBytes() => new()
    {
        ["missing"] = (RawClient.Frame([1, 2, 3]), Proxy, DisconnectReason.ProxyHeaderMissing),
        ["malformed v1"] = (V1("PROXY TCP4 300.0.0.1 10.0.0.1 1 2\r\n"), Proxy, DisconnectReason.ProxyHeaderMalformed),
        ["malformed v2"] = (V2(0x21, 0x11, new byte[5]), Proxy, DisconnectReason.ProxyHeaderMalformed),
        ["too large v1"] = (V1("PROXY UNKNOWN " + new string('x', 120)), Proxy, DisconnectReason.ProxyHeaderTooLarge),
        ["too large v2"] = (V2(0x21, 0x11, Tcp4("1.2.3.4", "5.6.7.8", 1, 2), Tlv(0xE0, new byte[2000])), Proxy, DisconnectReason.ProxyHeaderTooLarge),
        ["unsupported"] = (V2(0x21, 0x12, Tcp4("1.2.3.4", "5.6.7.8", 1, 2)), Proxy, DisconnectReason.ProxyHeaderUnsupported),
        ["spoofed from an untrusted address"] = (V1("PROXY TCP4 10.9.9.9 10.0.0.1 1 2\r\n"), Elsewhere, DisconnectReason.ProxyHeaderUntrusted),
    };

    private static BerthServerOptions Options() => new()
    {
        ProxyProtocol = new ProxyProtocolOptions { TrustedProxies = { new IPNetwork(Proxy, 32) } },
    };
}
