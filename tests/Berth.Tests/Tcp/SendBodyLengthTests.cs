using System.Buffers;
using Berth.Buffers;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>
/// Every send API of a connection refuses a body outside the format's bounds with <see cref="ArgumentOutOfRangeException"/>,
/// queues nothing, and leaves the connection working.
/// </summary>
public sealed class SendBodyLengthTests
{
    private static readonly LengthFieldFormat Bounded = new(minBodyLength: 1, maxBodyLength: 64);

    public static TheoryData<int> OutOfBounds => [0, 65, 1000];

    [Theory]
    [MemberData(nameof(OutOfBounds))]
    public async Task Every_send_api_refuses_the_body_with_the_same_exception(int length)
    {
        var handler = new RecordingHandler { Echo = false };
        var options = new BerthServerOptions { Format = Bounded };
        await using (var server = EchoTests.Start(options, handler))
        {
            using var client = new RawClient(server.EndPoint);
            var connection = await handler.FirstConnection.Within();
            var body = new byte[length];

            Assert.Throws<ArgumentOutOfRangeException>(() => connection.TrySend(body));
            Assert.Throws<ArgumentOutOfRangeException>(() => connection.TrySend(new ReadOnlySequence<byte>(body)));
            Assert.Throws<ArgumentOutOfRangeException>(() => connection.TrySend(length, WriteZeros));
            Assert.Throws<ArgumentOutOfRangeException>(() => connection.SendAsync(body));
            await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => connection.SendAsync(length, WriteZeros).AsTask());

            Assert.Equal(0, connection.QueuedBytes);
            Assert.True(connection.IsConnected);
            Assert.True(connection.TrySend(new byte[] { 7 }));
            Assert.Equal(new byte[] { 7 }, client.ReceiveFrame());
        }

        Assert.Equal(0, options.BufferPool.Outstanding);
    }

    private static void WriteZeros(ref PacketWriter writer, int length) => writer.WriteBytes(new byte[length]);
}
