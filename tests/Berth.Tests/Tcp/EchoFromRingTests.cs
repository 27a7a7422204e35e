using System.Buffers;
using System.Buffers.Binary;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Send;
using Berth.Connections.Transport;
using Berth.Framing;

namespace Berth.Tests.Tcp;

/// <summary>
/// A reply that repeats a received frame byte for byte is sent from the receive ring instead of copied (on the epoll
/// loop's thread): the send queue records it where it lies, and whatever of it is not written by the batch's end is
/// copied before the ring changes. The other transports copy as before; every test runs over each.
/// </summary>
public sealed class EchoFromRingTests
{
    private const int Limit = 1 << 20;

    public static TheoryData<int, TransportKind> BurstSizesOverEachTransport() => Transports.Each(64, 1024, 65_536);

    [Fact]
    public void ARunOfRepliesRepeatingFramesOfTheLentBufferIsOneSegmentOfIt()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);
        var (ring, bodies) = FramesIn(256, 2, 100, 7);

        queue.LendReceiveBuffer(ring);
        foreach (var body in bodies)
        {
            Assert.Equal(AppendResult.Accepted, queue.TryAppend(body, fromReceiveLoop: true));
        }

        Assert.True(queue.EndReplies());
        var batch = queue.TakeBatch(out _)!;
        Assert.Equal(1, batch.SegmentCount);
        var segment = batch.Segment(0);
        Assert.Same(ring, segment.Array);
        Assert.Equal((2, 4 + 100 + 4 + 7), (segment.Offset, segment.Count));
        queue.BatchWritten(batch);
        Assert.False(queue.ReturnReceiveBuffer());
        Assert.Equal(0, queue.QueuedBytes);
        queue.Release(PeerAcknowledgement.Unknown);
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public async Task LentBytesAreRefusedToOtherThreadsAndCopiedWhenTheLoanEnds()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);
        var (ring, bodies) = FramesIn(128, 0, 30, 40);
        var expected = ring[..78];

        queue.LendReceiveBuffer(ring);
        foreach (var body in bodies)
        {
            Assert.Equal(AppendResult.Accepted, queue.TryAppend(body, fromReceiveLoop: true));
        }

        Assert.True(queue.EndReplies());
        var (taken, held) = await Task.Run(() => (queue.TakeBatch(out var h), h));
        Assert.Null(taken);
        Assert.True(held);

        Assert.True(queue.ReturnReceiveBuffer());
        ring.AsSpan().Fill(0xEE);
        var batch = queue.TakeBatch(out _)!;
        Assert.NotSame(ring, batch.Segment(0).Array);
        Assert.Equal(expected, batch.WrittenSequence.ToArray());
        Assert.Equal(78, queue.QueuedBytes);
        queue.Close();
        Assert.Equal((2L, 78L), queue.Release(PeerAcknowledgement.Unknown));
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public void ABodyWithoutItsOwnHeaderInFrontOfItInTheLentBufferIsCopied()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);
        var (ring, bodies) = FramesIn(64, 0, 20);
        var elsewhere = new byte[64];

        queue.LendReceiveBuffer(ring);
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(bodies[0].Slice(1), fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(new ReadOnlySequence<byte>(ring, 2, 10), fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(new ReadOnlySequence<byte>(elsewhere, 4, 20), fromReceiveLoop: true));
        queue.EndReplies();
        var batch = queue.TakeBatch(out _)!;
        Assert.Equal(1, batch.SegmentCount);
        Assert.NotSame(ring, batch.Segment(0).Array);
        Assert.Equal(23 + 14 + 24, batch.WrittenCount);
        queue.BatchWritten(batch);
        Assert.False(queue.ReturnReceiveBuffer());
        queue.Release(PeerAcknowledgement.Unknown);
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public void AQueueReleasedWhileItRefersToLentBytesReportsThemUnsentAndGivesThePoolNothingItDidNotLend()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);
        var (ring, bodies) = FramesIn(64, 0, 10, 10);

        queue.LendReceiveBuffer(ring);
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(bodies[0], fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend("owned"u8, fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(bodies[1], fromReceiveLoop: true));
        queue.EndReplies();
        queue.Close();
        Assert.Equal((3L, 14L + 9 + 14), queue.Release(acknowledgedBytes: 0));
        Assert.Equal(0, pool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(BurstSizesOverEachTransport))]
    public async Task PipelinedBurstsAreEchoedWholeAndInOrder(int size, TransportKind kind)
    {
        var options = new BerthServerOptions().On(kind);
        await using (var server = EchoTests.Start(options))
        {
            using var client = new RawClient(server, kind);
            var burst = size >= 65_536 ? 8 : 64;
            for (var round = 0; round < 4; round++)
            {
                var bodies = Enumerable.Range(0, burst).Select(i => EchoTests.RandomBody(size, (round * burst) + i)).ToArray();
                var sending = BackpressureTests.OnOwnThread(() => client.Send(bodies.SelectMany(b => RawClient.Frame(b)).ToArray()));
                foreach (var body in bodies)
                {
                    Assert.Equal(body, client.ReceiveFrame());
                }

                await sending.Within();
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task RepliesLeftByAFullSocketArriveWholeAndInOrderAfterTheRingWasRefilled(TransportKind kind)
    {
        const int frames = 6000;
        const int limit = 256 * 1024;
        var handler = new RecordingHandler();
        var options = new BerthServerOptions { ReceiveBufferSize = 4096, SendQueueLimit = limit }.On(kind);
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(Transports.AddressOf(server), kind, receiveBufferSize: 4096);
            var sending = BackpressureTests.OnOwnThread(() =>
            {
                for (var i = 0; i < frames; i++)
                {
                    client.SendFrame(BodyOf(i));
                }
            });

            // The witness that the socket was full: replies piled up in the queue to its limit, batch after batch,
            // while the ring they were delivered from was refilled each time.
            var connection = await handler.FirstConnection.Within();
            await Waits.Until(() => connection.PeakQueuedBytes >= limit);

            for (var i = 0; i < frames; i++)
            {
                Assert.True(BodyOf(i).AsSpan().SequenceEqual(client.ReceiveFrame()), $"echo {i} differs");
            }

            await sending.Within();
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task FramesFromAnotherThreadAroundEachEchoGoOutInTheOrderOfTheCalls(TransportKind kind)
    {
        const int frames = 40;
        var options = new BerthServerOptions().On(kind);
        await using (var server = EchoTests.Start(options, new SurroundingHandler()))
        {
            using var client = new RawClient(server, kind);
            client.Send(Enumerable.Range(0, frames).SelectMany(i => RawClient.Frame(BodyOf(i))).ToArray());
            for (var i = 0; i < frames; i++)
            {
                Assert.Equal("before"u8.ToArray(), client.ReceiveFrame());
                Assert.True(BodyOf(i).AsSpan().SequenceEqual(client.ReceiveFrame()), $"echo {i} differs");
                Assert.Equal("after"u8.ToArray(), client.ReceiveFrame());
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task AConnectionAbortedWithEchoesUnwrittenReportsEveryEchoThePeerDidNotGetAsUnsent(TransportKind kind)
    {
        const int body = 1000;
        const int limit = 64 * 1024;
        var handler = new CountingEchoHandler();
        var options = new BerthServerOptions { ReceiveBufferSize = 4096, SendQueueLimit = limit }.On(kind);
        await using (var server = EchoTests.Start(options, handler))
        {
            var client = new RawClient(Transports.AddressOf(server), kind, receiveBufferSize: 4096);
            var frame = RawClient.Frame(new byte[body]);
            var flooding = BackpressureTests.OnOwnThread(() =>
            {
                try
                {
                    for (var i = 0; i < 100_000; i++)
                    {
                        client.Send(frame);
                    }
                }
                catch (Exception e) when (e is System.Net.Sockets.SocketException or IOException or ObjectDisposedException)
                {
                    // The server aborted the connection.
                }
            });

            var connection = await handler.FirstConnection.Task.Within();
            await Waits.Until(() => connection.PeakQueuedBytes >= limit);
            connection.Abort(DisconnectReason.SlowConsumer);
            var info = await connection.Closed.Within();

            Assert.True(info.UnsentFrames > 0);
            Assert.Equal(info.UnsentFrames * (body + 4), info.UnsentBytes);
            Assert.True(info.UnsentFrames <= handler.Echoed);
            client.Dispose();
            await flooding.Within();
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    private static byte[] BodyOf(int frame) => EchoTests.RandomBody(1 + (frame * 7919 % 3000), frame);

    private static SendQueue NewQueue(BufferPool pool) =>
        new(LengthFieldFormat.Berth, Limit, pool, PooledBufferWriter.DefaultSegmentSize, BerthMetrics.For(null));

    /// <summary>
    /// A receive buffer of <paramref name="size"/> bytes holding frames of <paramref name="bodyLengths"/> back to back from
    /// <paramref name="start"/>, and each frame's body as the receive path hands it out.
    /// </summary>
    private static (byte[] Ring, ReadOnlySequence<byte>[] Bodies) FramesIn(int size, int start, params int[] bodyLengths)
    {
        var ring = new byte[size];
        var bodies = new ReadOnlySequence<byte>[bodyLengths.Length];
        var at = start;
        for (var i = 0; i < bodyLengths.Length; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(ring.AsSpan(at), (uint)bodyLengths[i]);
            new Random(i).NextBytes(ring.AsSpan(at + 4, bodyLengths[i]));
            bodies[i] = new ReadOnlySequence<byte>(ring, at + 4, bodyLengths[i]);
            at += 4 + bodyLengths[i];
        }

        return (ring, bodies);
    }

    /// <summary>Echoes each frame between two frames sent from another thread while the handler waits for each.</summary>
    private sealed class SurroundingHandler : ConnectionHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Assert.True(Task.Run(() => connection.TrySend("before"u8)).Result);
            Assert.True(connection.TrySend(body));
            Assert.True(Task.Run(() => connection.TrySend("after"u8)).Result);
        }
    }

    /// <summary>Echoes and counts the echoes accepted.</summary>
    private sealed class CountingEchoHandler : ConnectionHandler
    {
        private long _echoed;

        public TaskCompletionSource<Connection> FirstConnection { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public long Echoed => Interlocked.Read(ref _echoed);

        public override void OnConnected(Connection connection) => FirstConnection.TrySetResult(connection);

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (connection.TrySend(body))
            {
                Interlocked.Increment(ref _echoed);
            }
        }
    }
}
