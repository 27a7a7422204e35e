using System.Buffers.Binary;
using Berth.Framing;
using Berth.Tcp;

namespace Berth.Tests.Tcp;

/// <summary>
/// A connection whose send queue is over its limit stops reading, so a peer that pipelines but reads its replies is
/// slowed down by TCP flow control instead of dropped; a peer that never reads is closed once sending stalls.
/// </summary>
public sealed class BackpressureTests
{
    private const int Frames = 64;
    private const int BodySize = LengthFieldFormat.DefaultMaxBodyLength;

    [Fact]
    public async Task APipeliningClientThatReadsItsEchoesGetsEveryOneBack()
    {
        var handler = new RecordingHandler();
        var options = new TcpServerOptions();
        await using (var server = EchoTests.Start(options, handler))
        {
            for (var round = 0; round < 5; round++)
            {
                using var client = new RawClient(server.EndPoint);
                var sending = OnOwnThread(() => SendAll(client));
                var receiving = OnOwnThread(() => ReceiveAll(client));
                await Task.WhenAll(sending, receiving).Within();
            }

            await Waits.Until(() => handler.Disconnects.Count == 5);
            Assert.All(handler.Disconnects, d => Assert.Equal(DisconnectReason.ClosedByPeer, d.Info.Reason));
            Assert.All(handler.Disconnects, d => Assert.Equal(0, d.Info.UnsentFrames));
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task ANeverReaderIsClosedAsASlowConsumerWithItsMemoryBoundedByTheLimit()
    {
        const int limit = 64 * 1024;
        const int segment = 16 * 1024;
        const int body = 1000;
        var options = new TcpServerOptions
        {
            SendQueueLimit = limit,
            SendSegmentSize = segment,
            SlowConsumerTimeout = TimeSpan.FromMilliseconds(500),
        };

        // The queue holds at most the limit plus one reply, in segments of whole frames; each of the two send buffers
        // may end in a partly filled segment; the receive ring is one more array (the frames fit its initial size).
        const int bound = ((limit + body + 4 + segment - 1) / segment) + 2 + 1;
        var handler = new RecordingHandler();
        long peak = 0;
        await using (var server = EchoTests.Start(options, handler))
        {
            var client = new RawClient(server.EndPoint);
            var flooding = OnOwnThread(() => Flood(client, RawClient.Frame(new byte[body])));
            var connection = await handler.FirstConnection.Within();
            while (!connection.Closed.IsCompleted)
            {
                peak = Math.Max(peak, options.BufferPool.Outstanding);
                await Task.Delay(1);
            }

            var info = await connection.Closed.Within();
            client.Dispose();
            await flooding.Within();
            Assert.Equal(DisconnectReason.SlowConsumer, info.Reason);
            Assert.True(info.UnsentFrames > 0);
            // Unsent counts the queue and what the kernel held unacknowledged for the peer that never read (its socket
            // buffers, megabytes), each frame whole; the memory Berth held is bounded by the peak below.
            Assert.Equal(info.UnsentFrames * (body + 4), info.UnsentBytes);
        }

        Assert.InRange(peak, 1, bound);
        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    internal static Task OnOwnThread(Action action) =>
        Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private static void SendAll(RawClient client)
    {
        var frame = new byte[4 + BodySize];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, BodySize);
        for (var i = 0; i < Frames; i++)
        {
            Fill(frame.AsSpan(4), i);
            client.Send(frame);
        }
    }

    private static void ReceiveAll(RawClient client)
    {
        var expected = new byte[BodySize];
        for (var i = 0; i < Frames; i++)
        {
            Fill(expected, i);
            var echo = client.ReceiveFrame();
            Assert.True(expected.AsSpan().SequenceEqual(echo), $"echo {i} differs");
        }
    }

    private static void Fill(Span<byte> body, int frame)
    {
        new Random(frame).NextBytes(body);
    }

    private static void Flood(RawClient client, byte[] frame)
    {
        try
        {
            for (var i = 0; i < 1_000_000; i++)
            {
                client.Send(frame);
            }
        }
        catch (Exception e) when (e is System.Net.Sockets.SocketException or ObjectDisposedException)
        {
            // The server closed the connection, or the test disposed the socket once it had.
        }
    }
}
