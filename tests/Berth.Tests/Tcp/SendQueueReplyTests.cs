using System.Buffers;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Send;
using Berth.Connections.Transport;
using Berth.Framing;

namespace Berth.Tests.Tcp;

/// <summary>
/// The replies of a delivered batch go into the send queue under one hold of its pending buffer instead of one lock
/// each: what the sender, the bound, a close, the record of frame ends and other threads' frames see meanwhile.
/// </summary>
public sealed class SendQueueReplyTests
{
    private const int Limit = 1000;
    private static readonly byte[] Reply = new byte[6];

    [Fact]
    public void TheSenderTakesNoReplyBeforeTheBatchEndsAndIsWokenByIt()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);

        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.Equal(20, queue.QueuedBytes);
        Assert.Null(queue.TakeBatch(out var held));
        Assert.True(held);

        Assert.True(queue.EndReplies());
        var batch = queue.TakeBatch(out held);
        Assert.False(held);
        Assert.Equal(20, batch!.WrittenCount);
        queue.BatchWritten(batch);
        Assert.Equal(0, queue.QueuedBytes);
        Assert.Equal(20, queue.PeakQueuedBytes);
        Assert.False(queue.EndReplies());
        queue.Release(PeerAcknowledgement.Unknown);
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public void RepliesCountAgainstTheBoundAsTheyAreAccepted()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);
        var large = new byte[Limit - 9 - 4];

        Assert.Equal(AppendResult.Accepted, queue.TryAppend(large, fromReceiveLoop: true));
        Assert.Equal(AppendResult.Full, queue.TryAppend(Reply, fromReceiveLoop: false));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.True(queue.OverLimit);
        Assert.Equal(AppendResult.Full, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.False(queue.RoomAvailable().IsCompleted);

        Assert.True(queue.EndReplies());
        Assert.Equal(Limit + 1, queue.QueuedBytes);
        Assert.Equal(Limit + 1, queue.PeakQueuedBytes);
        queue.Release(PeerAcknowledgement.Unknown);
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public void AfterACloseRepliesAreRefusedAndTheOnesAcceptedBeforeAreReportedUnsent()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);

        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        queue.Close();
        Assert.Equal(AppendResult.Closed, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.Null(queue.TakeBatch(out var held));
        Assert.True(held);

        Assert.True(queue.EndReplies());
        Assert.Equal(AppendResult.Closed, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.Equal((1L, 10L), queue.Release(PeerAcknowledgement.Unknown));
        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public async Task AFrameFromAnotherThreadGoesBehindTheRepliesBeforeItAndAheadOfTheNextOneInTheRecordToo()
    {
        var pool = new BufferPool();
        var queue = NewQueue(pool);
        var other = new byte[96];
        other[0] = 0xAB;

        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, await Task.Run(() => queue.TryAppend(other, fromReceiveLoop: false)));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.Equal(AppendResult.Accepted, queue.TryAppend(Reply, fromReceiveLoop: true));
        Assert.True(queue.EndReplies());

        var batch = queue.TakeBatch(out _)!;
        var bytes = batch.WrittenSequence.ToArray();
        Assert.Equal(130, bytes.Length);
        Assert.Equal(96, BitConverter.ToInt32(bytes, 10));
        Assert.Equal(0xAB, bytes[14]);

        // Frames end at 10, 110, 120 and 130 in the stream; the peer acknowledged 20 bytes.
        queue.Close();
        Assert.Equal((3L, 120L), queue.Release(acknowledgedBytes: 20));
        Assert.Equal(0, pool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task FramesAnotherThreadSendsWhileAHandlerRepliesGoOutInTheOrderOfTheCalls(TransportKind kind)
    {
        var handler = new HandingOffHandler();
        var options = new BerthServerOptions().On(kind);
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server, kind);
            client.Send([.. RawClient.Frame("1"u8), .. RawClient.Frame("2"u8)]);
            foreach (var expected in new[] { "1a", "1b", "1c", "1d", "2a", "2b", "2c", "2d" })
            {
                Assert.Equal(expected, System.Text.Encoding.ASCII.GetString(client.ReceiveFrame()));
            }
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [MemberData(nameof(Transports.All), MemberType = typeof(Transports))]
    public async Task AFlushingCloseFromAnotherThreadDuringABatchStillWritesTheRepliesBeforeIt(TransportKind kind)
    {
        var handler = new ClosingHandler();
        var options = new BerthServerOptions().On(kind);
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server, kind);
            client.SendFrame("close"u8);
            Assert.Equal("before the close"u8.ToArray(), client.ReceiveFrame());
            Assert.True(client.WaitForClose());
            var (_, info) = await handler.Closed.Task.Within();
            Assert.Equal(DisconnectReason.ClosedByApplication, info.Reason);
            Assert.Equal(0, info.UnsentFrames);
            Assert.False(handler.AcceptedAfterClose);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void SerializedFramesThatRunPastTheEndOfAnArrayAreWrittenWholeAndInOrder(bool fromReceiveLoop)
    {
        var pool = new BufferPool();
        var queue = new SendQueue(LengthFieldFormat.Berth, 1 << 20, pool, PooledBufferWriter.DefaultSegmentSize, BerthMetrics.For(null));
        var expected = new List<byte>();

        // Lengths that leave 0 to 3 bytes, less than a header, at an array's end, and bodies longer than an array.
        foreach (var length in new[] { 4088, 1, 0, 4089, 4090, 4091, 5000, 3, 9000, 17 })
        {
            var body = Enumerable.Range(0, length).Select(i => (byte)(i * 31 + length)).ToArray();
            Assert.Equal(AppendResult.Accepted, queue.TryAppend(body, static (ref PacketWriter writer, byte[] b) => writer.WriteBytes(b), fromReceiveLoop) switch
            {
                AppendResult.AcceptedIntoEmpty => AppendResult.Accepted,
                var result => result,
            });
            expected.AddRange(RawClient.Frame(body));
        }

        queue.EndReplies();
        var batch = queue.TakeBatch(out _)!;
        Assert.Equal(expected.ToArray(), batch.WrittenSequence.ToArray());
        queue.BatchWritten(batch);
        queue.Release(PeerAcknowledgement.Unknown);
        Assert.Equal(0, pool.Outstanding);
    }

    private static SendQueue NewQueue(BufferPool pool) =>
        new(LengthFieldFormat.Berth, Limit, pool, PooledBufferWriter.DefaultSegmentSize, BerthMetrics.For(null));

    /// <summary>
    /// For each frame: a reply, a frame sent from another thread while the handler waits for it, a second reply, and a
    /// frame sent from another thread after the last reply.
    /// </summary>
    private sealed class HandingOffHandler : ConnectionHandler
    {
        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            var name = System.Text.Encoding.ASCII.GetString(body.ToArray());
            Assert.True(connection.TrySend(System.Text.Encoding.ASCII.GetBytes(name + "a")));
            Assert.True(Task.Run(() => connection.TrySend(System.Text.Encoding.ASCII.GetBytes(name + "b"))).Result);
            Assert.True(connection.TrySend(System.Text.Encoding.ASCII.GetBytes(name + "c")));
            Assert.True(Task.Run(() => connection.TrySend(System.Text.Encoding.ASCII.GetBytes(name + "d"))).Result);
        }
    }

    /// <summary>Replies, has another thread close the connection, and tries to reply once more.</summary>
    private sealed class ClosingHandler : ConnectionHandler
    {
        public TaskCompletionSource<(Connection, DisconnectInfo)> Closed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public bool AcceptedAfterClose { get; private set; }

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            Assert.True(connection.TrySend("before the close"u8));
            Task.Run(connection.Close).Wait();
            AcceptedAfterClose = connection.TrySend("after the close"u8);
        }

        public override void OnDisconnected(Connection connection, DisconnectInfo info) => Closed.TrySetResult((connection, info));
    }
}
