using System.Buffers;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Framing;
using Berth.Messages;
using Berth.Protobuf;

namespace Berth.Codecs.Tests.Protobuf;

/// <summary>Google.Protobuf messages through Berth's router and typed sends, against a peer that frames them itself.</summary>
public sealed class ProtobufCodecTests
{
    private static readonly ProtobufCodec<Login> LoginCodec = new(1, Login.Parser);
    private static readonly ProtobufCodec<Welcome> WelcomeCodec = new(2, Welcome.Parser);

    [Fact]
    public async Task A_fast_port_sharp_peer_and_berth_exchange_protobuf_messages()
    {
        var router = new PacketRouter().On(LoginCodec, static (Connection connection, in Login login) =>
        {
            var welcome = new Welcome { Session = login.Level * 1000L, Motd = $"hello {login.Name}" };
            welcome.Items.AddRange(login.Items.Select(i => i + 1));
            connection.TrySend(WelcomeCodec, welcome);
        });
        var options = new BerthServerOptions { Format = LengthFieldFormat.FastPortSharp };
        await using (var server = Start(options, router))
        {
            using var peer = new FastPortPeer(server.EndPoint);
            for (var level = 1; level <= 3; level++)
            {
                var login = new Login { Name = $"ünï {level}", Level = level };
                login.Items.AddRange(Enumerable.Range(0, level * 100));
                peer.Send(1, login);

                var (id, welcome) = peer.Receive(Welcome.Parser);

                Assert.Equal(2, id);
                Assert.Equal(level * 1000L, welcome.Session);
                Assert.Equal($"hello ünï {level}", welcome.Motd);
                Assert.Equal(Enumerable.Range(1, level * 100), welcome.Items);
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task A_body_protobuf_rejects_closes_only_the_sender_with_malformed_message()
    {
        var closed = new TaskCompletionSource<DisconnectInfo>(TaskCreationOptions.RunContinuationsAsynchronously);
        var router = new ClosingRouter(closed).On(LoginCodec, static (Connection connection, in Login login) =>
            connection.TrySend(WelcomeCodec, new Welcome { Motd = login.Name }));
        var options = new BerthServerOptions { Format = LengthFieldFormat.FastPortSharp };
        await using (var server = Start(options, router))
        {
            using var witness = new FastPortPeer(server.EndPoint);
            using var offender = new FastPortPeer(server.EndPoint);
            AssertAnswers(witness, "before");

            // Field 1, a string announcing 5 bytes, then only one.
            offender.SendRaw(1, [0x0A, 0x05, 0x41]);
            AssertAnswers(witness, "during");

            var info = await closed.Task.WaitAsync(TimeSpan.FromSeconds(30));
            Assert.Equal(DisconnectReason.MalformedMessage, info.Reason);
            var error = Assert.IsType<MessageFormatException>(info.Error);
            Assert.Equal(("Login", MessageFault.Malformed), (error.Field, error.Fault));
            Assert.True(offender.WaitForClose());
            AssertAnswers(witness, "after");
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task A_body_over_the_codec_bound_is_refused_before_parsing()
    {
        var closed = new TaskCompletionSource<DisconnectInfo>(TaskCreationOptions.RunContinuationsAsynchronously);
        var small = new ProtobufCodec<Login>(1, Login.Parser, maxEncodedSize: 16);
        var router = new ClosingRouter(closed).On(small, static (Connection connection, in Login login) => { });
        await using var server = Start(new BerthServerOptions { Format = LengthFieldFormat.FastPortSharp }, router);
        using var offender = new FastPortPeer(server.EndPoint);

        offender.Send(1, new Login { Name = new string('x', 40) });

        var error = Assert.IsType<MessageFormatException>((await closed.Task.WaitAsync(TimeSpan.FromSeconds(30))).Error);
        Assert.Equal(MessageFault.SizeOverBound, error.Fault);
    }

    [Fact]
    public void A_message_over_the_codec_bound_is_not_sent()
    {
        var small = new ProtobufCodec<Login>(1, Login.Parser, maxEncodedSize: 16);

        Assert.Throws<ArgumentException>(() =>
        {
            var writer = new PacketWriter(new ArrayBufferWriter<byte>());
            small.Write(ref writer, new Login { Name = new string('x', 40) });
        });
    }

    private static void AssertAnswers(FastPortPeer peer, string name)
    {
        peer.Send(1, new Login { Name = name });
        Assert.Equal(name, peer.Receive(Welcome.Parser).Message.Motd);
    }

    private static BerthServer Start(BerthServerOptions options, ConnectionHandler handler)
    {
        var server = new BerthServer(options, handler);
        server.Start();
        return server;
    }

    private sealed class ClosingRouter(TaskCompletionSource<DisconnectInfo> closed) : PacketRouter
    {
        public override void OnDisconnected(Connection connection, DisconnectInfo info) => closed.TrySetResult(info);
    }
}
