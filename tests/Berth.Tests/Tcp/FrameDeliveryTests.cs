using System.Buffers;
using System.Net;
using System.Net.Sockets;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Transport;
using Berth.Framing;
using Microsoft.Extensions.Logging.Abstractions;

namespace Berth.Tests.Tcp;

/// <summary>
/// Frame delivery walks one run of the ring's array when the readable bytes do not cross the ring's end, and a
/// sequence sliced per frame when they do. Each case here is delivered contiguous, ending exactly at the ring's end,
/// and wrapped at every byte of the stream: every placement must hand the handler the same bodies, stop at the same
/// frame for the same reason, consume the same bytes and ask for the same rest. The connection is real (loopback),
/// its loops not started, so the test drives one delivery at a time.
/// </summary>
public sealed class FrameDeliveryTests
{
    [Fact]
    public async Task WholeFramesThenASplitHeaderDeliverTheSameWherever()
    {
        var stream = Stream(LengthFieldFormat.Berth, Body(0), Body(5), Body(40)).Concat(new byte[] { 30, 0 }).ToArray();

        var outcome = await AssertSameEverywhere(stream, new Scenario(LengthFieldFormat.Berth));

        Assert.Equal([Body(0), Body(5), Body(40)], outcome.Bodies);
        Assert.Equal((1, 2, DisconnectReason.ClosedByApplication), (outcome.Returned, outcome.Left, outcome.Reason));
    }

    [Fact]
    public async Task APartialBodyAsksForItsRestWherever()
    {
        var whole = Stream(LengthFieldFormat.FastPortSharp, Body(9), Body(60));
        var stream = whole[..^7];

        var outcome = await AssertSameEverywhere(stream, new Scenario(LengthFieldFormat.FastPortSharp));

        Assert.Equal([Body(9)], outcome.Bodies);
        Assert.Equal((7, 2 + 53), (outcome.Returned, outcome.Left));
    }

    [Fact]
    public async Task AFrameEndingExactlyAtTheWrapIsDeliveredWhole()
    {
        var first = Stream(LengthFieldFormat.Berth, Body(20));
        var stream = first.Concat(Stream(LengthFieldFormat.Berth, Body(33))).ToArray();

        var outcome = await Deliver(stream, first.Length, new Scenario(LengthFieldFormat.Berth));

        Assert.Equal([Body(20), Body(33)], outcome.Bodies);
        Assert.Equal((1, 0), (outcome.Returned, outcome.Left));
    }

    [Fact]
    public async Task ATooLargeFrameClosesAfterTheFramesBeforeItWherever()
    {
        var format = LengthFieldFormat.Berth.WithMaxBodyLength(50);
        var stream = Stream(format, Body(7), Body(50)).Concat(new byte[] { 51, 0, 0, 0, 1, 2 }).ToArray();

        var outcome = await AssertSameEverywhere(stream, new Scenario(format));

        Assert.Equal([Body(7), Body(50)], outcome.Bodies);
        Assert.Equal(DisconnectReason.FrameTooLarge, outcome.Reason);
        Assert.Equal(6, outcome.Left);
    }

    [Fact]
    public async Task AMalformedFrameClosesAfterTheFramesBeforeItWherever()
    {
        var format = LengthFieldFormat.FastPortSharp;
        var stream = Stream(format, Body(3), Body(12)).Concat(new byte[] { 1, 0, 9, 9, 9 }).ToArray();

        var outcome = await AssertSameEverywhere(stream, new Scenario(format));

        Assert.Equal([Body(3), Body(12)], outcome.Bodies);
        Assert.Equal(DisconnectReason.MalformedFrame, outcome.Reason);
    }

    [Fact]
    public async Task AQueueOverItsLimitMidBatchPausesAtTheSameFrameWherever()
    {
        var bodies = Enumerable.Range(1, 8).Select(i => Body(10 + i)).ToArray();
        var stream = Stream(LengthFieldFormat.Berth, bodies);
        // Each reply is its frame again; the queue is over its limit once the third reply is in.
        var limit = (4 + 11) + (4 + 12) + 1;

        var outcome = await AssertSameEverywhere(stream, new Scenario(LengthFieldFormat.Berth) { SendQueueLimit = limit, Echo = true });

        Assert.Equal(bodies[..3], outcome.Bodies);
        Assert.Equal(0, outcome.Returned);
        Assert.Equal(stream.Length - (3 * 4) - 11 - 12 - 13, outcome.Left);
        Assert.Equal(DisconnectReason.ClosedByApplication, outcome.Reason);
    }

    [Fact]
    public async Task AThrowingHandlerClosesAfterTheFrameItThrewOnWherever()
    {
        var bodies = Enumerable.Range(1, 6).Select(i => Body(i * 3)).ToArray();
        var stream = Stream(LengthFieldFormat.Berth, bodies);

        var outcome = await AssertSameEverywhere(stream, new Scenario(LengthFieldFormat.Berth) { ThrowAtFrame = 4 });

        Assert.Equal(bodies[..4], outcome.Bodies);
        Assert.Equal(DisconnectReason.HandlerFailed, outcome.Reason);
        Assert.Equal(stream.Length - (4 * 4) - 3 - 6 - 9 - 12, outcome.Left);
    }

    /// <summary>Delivers <paramref name="stream"/> from every placement in the ring and returns the (common) outcome.</summary>
    private static async Task<Outcome> AssertSameEverywhere(byte[] stream, Scenario scenario)
    {
        var contiguous = await Deliver(stream, wrapAt: null, scenario);
        Assert.Equal(contiguous, await Deliver(stream, wrapAt: stream.Length, scenario));
        for (var wrapAt = 1; wrapAt < stream.Length; wrapAt++)
        {
            var wrapped = await Deliver(stream, wrapAt, scenario);
            Assert.True(contiguous.Equals(wrapped), $"wrapped after {wrapAt} bytes: {wrapped}, contiguous: {contiguous}");
        }

        return contiguous;
    }

    /// <summary>
    /// One delivery of <paramref name="stream"/>, placed at the ring's start, or so that its first
    /// <paramref name="wrapAt"/> bytes end exactly at the ring's end and the rest starts over at its beginning.
    /// </summary>
    private static async Task<Outcome> Deliver(byte[] stream, int? wrapAt, Scenario scenario)
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen();
        using var peer = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        peer.Connect(listener.LocalEndPoint!);
        var options = new BerthServerOptions
        {
            Format = scenario.Format,
            ReceiveBufferSize = 256,
            SendQueueLimit = scenario.SendQueueLimit,
            BufferPool = new BufferPool(),
        };
        var handler = new RecordingHandler(scenario);
        var connection = new Connection(1, new SocketTransport(listener.Accept()), options, handler, NullLogger.Instance, (_, _) => { });
        var (ring, _, delivery) = connection.Lifetime.NewReceivePath();
        using (ring)
        {
            Place(ring, stream, wrapAt);
            Assert.Equal(wrapAt is null || wrapAt == stream.Length, ring.TryGetContiguousReadable(out _));
            var returned = delivery.DeliverFrames(ring, lendRing: false);
            var left = ring.Length;
            connection.Lifetime.Refuse(DisconnectReason.ClosedByApplication, null);
            var reason = (await connection.Closed).Reason;
            return new Outcome(handler.Bodies, returned, left, reason);
        }
    }

    private static void Place(RingBuffer ring, byte[] stream, int? wrapAt)
    {
        if (wrapAt is not { } firstPart)
        {
            ring.Write(stream);
            return;
        }

        ring.GetWriteMemory();
        var filler = ring.Capacity - firstPart;
        Assert.True(stream.Length - firstPart <= filler, "the stream must fit in the ring");
        ring.Write(new byte[filler]);
        ring.Write(stream.AsSpan(0, firstPart));
        ring.Consume(filler);
        ring.Write(stream.AsSpan(firstPart));
    }

    private static byte[] Body(int length) => Enumerable.Range(0, length).Select(i => (byte)((i * 13) + length)).ToArray();

    private static byte[] Stream(LengthFieldFormat format, params byte[][] bodies)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = new FrameEncoder(format);
        foreach (var body in bodies)
        {
            encoder.WriteFrame(output, body);
        }

        return output.WrittenSpan.ToArray();
    }

    private sealed record Scenario(LengthFieldFormat Format)
    {
        public int SendQueueLimit { get; init; } = 1 << 20;

        public bool Echo { get; init; }

        public int ThrowAtFrame { get; init; }
    }

    private sealed record Outcome(List<byte[]> Bodies, int Returned, int Left, DisconnectReason Reason)
    {
        public bool Equals(Outcome? other) =>
            other is not null
            && Bodies.Count == other.Bodies.Count
            && Bodies.Zip(other.Bodies).All(pair => pair.First.AsSpan().SequenceEqual(pair.Second))
            && (Returned, Left, Reason) == (other.Returned, other.Left, other.Reason);

        public override int GetHashCode() => HashCode.Combine(Bodies.Count, Returned, Left, Reason);

        public override string ToString() =>
            $"{Bodies.Count} bodies ({string.Join(",", Bodies.Select(b => b.Length))}), returned {Returned}, {Left} left, {Reason}";
    }

    private sealed class RecordingHandler(Scenario scenario) : ConnectionHandler
    {
        public List<byte[]> Bodies { get; } = [];

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Bodies.Add(body.ToArray());
            if (scenario.Echo)
            {
                Assert.True(connection.TrySend(body));
            }

            if (Bodies.Count == scenario.ThrowAtFrame)
            {
                throw new InvalidOperationException("the handler failed");
            }
        }
    }
}
