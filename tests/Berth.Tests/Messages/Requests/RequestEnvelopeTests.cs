using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Framing;
using Berth.Messages;
using Berth.Messages.Requests;
using Berth.Tests.Support;
using Berth.Tests.Tcp;

namespace Berth.Tests.Messages.Requests;

/// <summary>The envelope's bytes, how it is told from a plain message, and request/response under every framing preset.</summary>
public sealed class RequestEnvelopeTests
{
    [Fact]
    public void The_header_is_sixteen_little_endian_bytes_kind_correlation_tag()
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new PacketWriter(output);
        RequestEnvelope.Write(ref writer, new EnvelopeHeader(EnvelopeKind.Reply, 0x0102030405060708, Pong.MessageId));
        writer.Flush();

        byte[] expected = [0x01, 0x00, 0x00, 0x80, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 41, 0, 0, 0];
        Assert.Equal(expected, output.WrittenSpan.ToArray());
        Assert.True(RequestEnvelope.TryRead(expected, out var header));
        Assert.Equal(new EnvelopeHeader(EnvelopeKind.Reply, 0x0102030405060708, 41), header);
    }

    [Fact]
    public void A_header_split_across_segments_reads_the_same()
    {
        byte[] bytes = [0x00, 0x00, 0x00, 0x80, 7, 0, 0, 0, 0, 0, 0, 0, 40, 0, 0, 0, 0xAA];
        Assert.True(RequestEnvelope.TryRead(Segments.OneBytePerSegment(bytes), out var header));
        Assert.Equal(new EnvelopeHeader(EnvelopeKind.Request, 7, 40), header);
    }

    [Fact]
    public void A_plain_message_or_a_short_body_is_not_an_envelope()
    {
        var plain = new byte[RequestEnvelope.HeaderLength];
        BinaryPrimitives.WriteInt32LittleEndian(plain, Ping.MessageId);
        Assert.False(RequestEnvelope.TryRead(plain, out _));
        Assert.False(RequestEnvelope.TryRead(new byte[] { 0x00, 0x00, 0x00, 0x80, 1 }, out _));
        Assert.False(RequestEnvelope.IsEnvelope(int.MinValue + 3));
        Assert.True(RequestEnvelope.IsEnvelope((int)EnvelopeKind.Error));
    }

    [Fact]
    public void A_router_refuses_a_handler_under_a_reserved_id()
    {
        var router = new PacketRouter();
        Assert.Throws<ArgumentException>(() => router.Map((int)EnvelopeKind.Reply, static (Connection _, in ReadOnlySequence<byte> _) => { }));
        router.OnRequest(static (Connection _, in Ping ping) => new Pong { Value = ping.Value });
        Assert.Throws<ArgumentException>(() => router.Map((int)EnvelopeKind.Request, static (Connection _, in ReadOnlySequence<byte> _) => { }));
    }

    public static TheoryData<string> Presets => ["Berth", "FastPortSharp", "Telepathy"];

    [Theory]
    [MemberData(nameof(Presets))]
    public async Task Requests_and_plain_messages_share_a_connection_under_every_preset(string preset)
    {
        var format = preset switch
        {
            "FastPortSharp" => LengthFieldFormat.FastPortSharp,
            "Telepathy" => LengthFieldFormat.Telepathy,
            _ => LengthFieldFormat.Berth,
        };
        var plain = new TaskCompletionSource<Ping>(TaskCreationOptions.RunContinuationsAsynchronously);
        var router = new PacketRouter()
            .OnRequest(static (Connection _, in Ping ping) => new Pong { Value = -ping.Value })
            .On((Connection _, in Ping ping) => plain.TrySetResult(ping));
        await using var peers = await RequestPeers.StartAsync(router, new BerthServerOptions { Format = format }, new BerthClientOptions { Format = format });

        Assert.Equal(-5, (await peers.Connection.RequestAsync<Ping, Pong>(new Ping { Value = 5 })).Value);
        await peers.Connection.SendAsync(new Ping { Value = 6 });
        Assert.Equal(6, (await plain.Task.Within()).Value);
    }
}
