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
    public async Task ANeverReaderIsClosedAsASlowConsumerWithItsQueueBoundedByTheLimit()
    {
        const int limit = 64 * 1024;
        const int body = 1000;
        var options = new TcpServerOptions { SendQueueLimit = limit, SlowConsumerTimeout = TimeSpan.FromMilliseconds(500) };
        var handler = new RecordingHandler();
        await using (var server = EchoTests.Start(options, handler))
        {
            var client = new RawClient(server.EndPoint);
            var flooding = OnOwnThread(() => Flood(client, RawClient.Frame(new byte[body])));
            var connection = await handler.FirstConnection.Within();
            var info = await connection.Closed.Within();
            client.Dispose();
            await flooding.Within();
            Assert.Equal(DisconnectReason.SlowConsumer, info.Reason);
            Assert.True(info.UnsentFrames > 0);
            // Unsent counts the queue and what the kernel held unacknowledged for the peer that never read (its socket
            // buffers, megabytes), each frame whole.
            Assert.Equal(info.UnsentFrames * (body + 4), info.UnsentBytes);

            // The queue's own high-water mark: it filled to its limit and, since the receive loop stops delivering
            // once it is there, went over by at most the one reply that crossed it.
            Assert.InRange(connection.PeakQueuedBytes, limit, limit + body + 4 - 1);
        }

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
