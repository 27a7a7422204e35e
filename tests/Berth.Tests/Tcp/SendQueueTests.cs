using Berth.Buffers;
using Berth.Tcp;

namespace Berth.Tests.Tcp;

/// <summary>
/// A client that never reads stalls the server's sender once the kernel's socket buffers are full; from then on the
/// queue fills up to its byte limit and each policy answers.
/// </summary>
public sealed class SendQueueTests
{
    private const int QueueLimit = 64 * 1024;
    private static readonly byte[] Chunk = new byte[16 * 1024];

    [Fact]
    public async Task RejectPolicyReturnsFalseAndThrowsWhileTheConnectionStaysOpen()
    {
        var handler = new RecordingHandler { Echo = false };
        var options = new TcpServerOptions { SendQueueLimit = QueueLimit, FullQueuePolicy = FullQueuePolicy.Reject };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var connection = await handler.FirstConnection.Within();
            var accepted = FillQueue(connection);

            Assert.True(connection.IsConnected);
            Assert.InRange(connection.QueuedBytes, QueueLimit - Chunk.Length - 4, QueueLimit);
            await Assert.ThrowsAsync<SendQueueFullException>(() => connection.SendAsync(Chunk).AsTask());
            var peak = connection.PeakQueuedBytes;
            Assert.InRange(peak, connection.QueuedBytes, QueueLimit);

            ReceiveFrames(client, accepted);
            await Waits.Until(() => connection.QueuedBytes == 0);
            Assert.Equal(peak, connection.PeakQueuedBytes);
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task WaitPolicyCompletesTheSendOnceThePeerReads()
    {
        var handler = new RecordingHandler { Echo = false };
        var options = new TcpServerOptions { SendQueueLimit = QueueLimit, FullQueuePolicy = FullQueuePolicy.Wait };
        await using var server = EchoTests.Start(options, handler);
        using var client = new RawClient(server.EndPoint);
        var connection = await handler.FirstConnection.Within();
        var accepted = FillQueue(connection);

        var waiting = connection.SendAsync(Chunk).AsTask();
        Assert.False(waiting.IsCompleted);
        ReceiveFrames(client, accepted + 1);
        await waiting.Within();
    }

    [Fact]
    public async Task SlowConsumerPolicyClosesTheConnectionAndReportsTheUnsentFrames()
    {
        var handler = new RecordingHandler { Echo = false };
        var options = new TcpServerOptions { SendQueueLimit = QueueLimit, FullQueuePolicy = FullQueuePolicy.CloseAsSlowConsumer };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var connection = await handler.FirstConnection.Within();
            FillQueue(connection);

            var info = await connection.Closed.Within();
            Assert.Equal(DisconnectReason.SlowConsumer, info.Reason);
            Assert.True(info.UnsentFrames > 0);
            Assert.True(info.UnsentBytes >= info.UnsentFrames * (Chunk.Length + 4));
            Assert.False(connection.TrySend(Chunk));
            await Assert.ThrowsAsync<ConnectionClosedException>(() => connection.SendAsync(Chunk).AsTask());
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    [Fact]
    public async Task AFrameWriterSerializesIntoTheQueueAndAThrowingOneLeavesNothing()
    {
        var handler = new RecordingHandler { Echo = false };
        var options = new TcpServerOptions();
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var connection = await handler.FirstConnection.Within();

            Assert.Throws<InvalidOperationException>(() => connection.TrySend(0, static (ref PacketWriter writer, int _) =>
            {
                writer.WriteBytes(new byte[50_000]);
                throw new InvalidOperationException("serialization failed half way");
            }));
            Assert.Equal(0, connection.QueuedBytes);

            Assert.True(connection.TrySend((Id: 7, Name: "seven"), static (ref PacketWriter writer, (int Id, string Name) state) =>
            {
                writer.WriteInt32(state.Id);
                writer.WriteUtf8(state.Name);
            }));
            await connection.SendAsync(8, static (ref PacketWriter writer, int id) => writer.WriteInt32(id));

            var first = new PacketReader(client.ReceiveFrame());
            Assert.Equal(7, first.ReadInt32());
            Assert.True(first.TryReadUtf8(out var name));
            Assert.Equal("seven", name);
            Assert.Equal(8, BitConverter.ToInt32(client.ReceiveFrame()));
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    private static int FillQueue(Connection connection)
    {
        var accepted = 0;
        while (connection.TrySend(Chunk))
        {
            accepted++;
            Assert.True(accepted < 100_000, "the queue never filled");
        }

        return accepted;
    }

    private static void ReceiveFrames(RawClient client, int count)
    {
        for (var i = 0; i < count; i++)
        {
            Assert.Equal(Chunk.Length, client.ReceiveFrame().Length);
        }
    }
}
