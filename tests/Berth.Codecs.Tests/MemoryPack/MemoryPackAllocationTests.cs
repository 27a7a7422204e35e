using System.Buffers.Binary;
using System.Net.Sockets;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Framing;
using Berth.MemoryPack;
using Berth.Messages;
using Berth.Tests.Tcp;
using MemoryPack;
using Xunit.Abstractions;

namespace Berth.Codecs.Tests.MemoryPack;

/// <summary>
/// An echo of an unmanaged MemoryPack struct through <see cref="MemoryPackCodec{TMessage}"/> (read from the frame,
/// written through the codec's scratch into the send queue) allocates nothing per message, process-wide.
/// </summary>
public sealed class MemoryPackAllocationTests(ITestOutputHelper output)
{
    private const int Pipeline = 16;
    private const int Messages = 10_000;
    private static readonly MemoryPackCodec<Position> PositionCodec = new(1);

    [Fact]
    public async Task A_struct_echo_through_the_codec_allocates_nothing_per_message()
    {
        var router = new PacketRouter().On(PositionCodec, static (Connection connection, in Position p) => connection.TrySend(PositionCodec, p with { Tick = p.Tick + 1 }));
        await using var server = new BerthServer(new BerthServerOptions { Format = LengthFieldFormat.FastPortSharp }, router);
        server.Start();
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = 30_000, NoDelay = true };
        socket.Connect(server.EndPoint);

        var body = MemoryPackSerializer.Serialize(new Position(7, 1, 2, 3, 1));
        var packet = new byte[2 + 4 + body.Length];
        BinaryPrimitives.WriteUInt16LittleEndian(packet, (ushort)packet.Length);
        BinaryPrimitives.WriteInt32LittleEndian(packet.AsSpan(2), PositionCodec.MessageId);
        body.CopyTo(packet, 6);
        var burst = new byte[Pipeline * packet.Length];
        for (var i = 0; i < Pipeline; i++)
        {
            packet.CopyTo(burst, i * packet.Length);
        }

        var replies = new byte[burst.Length];
        var growth = await Task.Factory.StartNew(
            () =>
            {
                RoundTrips(socket, burst, replies, 20_000);
                return AllocationGrowth.Measure(count => RoundTrips(socket, burst, replies, count), Messages, output, "MemoryPack codec echo");
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} more bytes allocated over {10 * Messages} echoes than over {Messages}");
        Assert.Equal(new Position(7, 1, 2, 3, 2), MemoryPackSerializer.Deserialize<Position>(replies.AsSpan(6, body.Length)));
    }

    private static void RoundTrips(Socket socket, byte[] burst, byte[] replies, int messages)
    {
        for (var sent = 0; sent < messages; sent += Pipeline)
        {
            socket.Send(burst);
            for (var read = 0; read < replies.Length;)
            {
                var n = socket.Receive(replies, read, replies.Length - read, SocketFlags.None);
                read += n > 0 ? n : throw new EndOfStreamException("The server closed the connection.");
            }
        }
    }
}
