using System.Buffers;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;

namespace Berth.Tests.Tcp;

public sealed class PacketRouterTests
{
    [Fact]
    public async Task PacketsGoToTheHandlerMappedToTheirIdAndAnUnknownIdClosesTheConnection()
    {
        var router = new DisconnectRecordingRouter();
        router.Map(1, static (Connection connection, in ReadOnlySequence<byte> payload) =>
        {
            var reader = new PacketReader(payload);
            var value = reader.ReadInt32();
            connection.TrySend(value, static (ref PacketWriter writer, int v) =>
            {
                writer.WriteInt32(2);
                writer.WriteInt32(v * 10);
            });
        });
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using var client = new RawClient(server.EndPoint);
        client.SendFrame([1, 0, 0, 0, 7, 0, 0, 0]);
        var reply = client.ReceiveFrame();
        Assert.Equal(2, BitConverter.ToInt32(reply, 0));
        Assert.Equal(70, BitConverter.ToInt32(reply, 4));

        client.SendFrame([9, 0, 0, 0]);
        Assert.True(client.WaitForClose());
        Assert.Equal(DisconnectReason.UnknownMessage, (await router.Disconnected.Task.Within()).Reason);
    }

    [Fact]
    public async Task A_body_shorter_than_an_id_closes_the_connection_as_a_malformed_frame_after_the_packets_before_it()
    {
        var router = new DisconnectRecordingRouter();
        router.Map(1, static (Connection connection, in ReadOnlySequence<byte> payload) =>
            connection.TrySend(payload.Length, static (ref PacketWriter writer, long length) => writer.WriteInt64(length)));
        await using var server = EchoTests.Start(new BerthServerOptions(), router);
        using var client = new RawClient(server.EndPoint);
        client.SendFrame([1, 0, 0, 0, 5]);
        Assert.Equal(1, BitConverter.ToInt64(client.ReceiveFrame(), 0));

        client.SendFrame([1, 0, 0]);
        Assert.True(client.WaitForClose());
        Assert.Equal(DisconnectReason.MalformedFrame, (await router.Disconnected.Task.Within()).Reason);
    }

    private sealed class DisconnectRecordingRouter : PacketRouter
    {
        public TaskCompletionSource<DisconnectInfo> Disconnected { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnDisconnected(Connection connection, DisconnectInfo info) => Disconnected.TrySetResult(info);
    }
}
