using System.Buffers;
using System.Buffers.Binary;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>A connection closed for bad input still delivers the replies it earned, and costs nobody else anything.</summary>
public sealed class BadInputCloseTests
{
    [Fact]
    public async Task AnOversizedHeaderAfterValidFramesClosesOnlyAfterTheirEchoes()
    {
        const int frames = 254;
        var handler = new RecordingHandler();
        var options = new BerthServerOptions();
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var bodies = Enumerable.Range(0, frames).Select(i => EchoTests.RandomBody(1000, i)).ToArray();
            var tooLarge = new byte[4];
            BinaryPrimitives.WriteUInt32LittleEndian(tooLarge, LengthFieldFormat.DefaultMaxBodyLength + 1);
            client.Send([.. bodies.SelectMany(b => RawClient.Frame(b)), .. tooLarge]);

            foreach (var body in bodies)
            {
                Assert.Equal(body, client.ReceiveFrame());
            }

            Assert.True(client.WaitForClose());
            await Waits.Until(() => !handler.Disconnects.IsEmpty);
            var (_, info) = Assert.Single(handler.Disconnects);
            Assert.Equal(DisconnectReason.FrameTooLarge, info.Reason);
            Assert.Equal(0, info.UnsentFrames);
            Assert.Equal(0, info.UnsentBytes);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task AnEmptyTelepathyFrameIsMalformedAndTheFramesBeforeItAreEchoed()
    {
        var format = LengthFieldFormat.Telepathy;
        var handler = new RecordingHandler();
        var options = new BerthServerOptions { Format = format };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var bodies = Enumerable.Range(1, 3).Select(i => EchoTests.RandomBody(i * 10, i)).ToArray();
            var stream = new ArrayBufferWriter<byte>();
            var encoder = new FrameEncoder(format);
            foreach (var body in bodies)
            {
                encoder.WriteFrame(stream, body);
            }

            client.Send([.. stream.WrittenSpan, 0, 0, 0, 0]);
            foreach (var body in bodies)
            {
                var header = new byte[4];
                client.ReceiveExactly(header);
                var echo = new byte[BinaryPrimitives.ReadUInt32BigEndian(header)];
                client.ReceiveExactly(echo);
                Assert.Equal(body, echo);
            }

            Assert.True(client.WaitForClose());
            await Waits.Until(() => !handler.Disconnects.IsEmpty);
            var (_, info) = Assert.Single(handler.Disconnects);
            Assert.Equal(DisconnectReason.MalformedFrame, info.Reason);
            Assert.Equal(0, info.UnsentFrames);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task AFrameDribbledTooSlowlyIsClosedWhileAWitnessKeepsEchoing()
    {
        var handler = new RecordingHandler();
        var options = new BerthServerOptions { FrameTimeout = TimeSpan.FromMilliseconds(500) };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var witness = new RawClient(server.EndPoint);
            using var dribbler = new RawClient(server.EndPoint);
            var closed = BackpressureTests.OnOwnThread(() => Assert.True(dribbler.WaitForClose()));
            var echoing = BackpressureTests.OnOwnThread(() => EchoUntil(witness, closed));
            var frame = RawClient.Frame(EchoTests.RandomBody(100, 1));
            for (var i = 0; i < frame.Length && !closed.IsCompleted; i++)
            {
                dribbler.Send(frame.AsSpan(i, 1));
                await Task.Delay(100);
            }

            await closed.Within();
            await echoing.Within();
            await Waits.Until(() => !handler.Disconnects.IsEmpty);
            var (_, info) = Assert.Single(handler.Disconnects);
            Assert.Equal(DisconnectReason.FrameTimeout, info.Reason);
            Assert.Single(handler.Connections, c => c.IsConnected);
            witness.SendFrame([42]);
            Assert.Equal(new byte[] { 42 }, witness.ReceiveFrame());
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    private static void EchoUntil(RawClient witness, Task stop)
    {
        for (var i = 0; !stop.IsCompleted && i < 1_000_000; i++)
        {
            var body = EchoTests.RandomBody(i % 500, i);
            witness.SendFrame(body);
            Assert.Equal(body, witness.ReceiveFrame());
        }
    }
}
