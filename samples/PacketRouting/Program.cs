using System.Buffers;
using System.Net;
using System.Threading.Channels;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;

// Every frame body starts with an int32 message id; a PacketRouter on each side sends the rest of the body to
// the handler mapped to that id. Packets are serialized with PacketWriter straight into the connection's pooled
// send memory, and read with PacketReader straight from its receive ring.
var serverRoutes = new PacketRouter()
    .Map(Messages.Login, static (Connection connection, in ReadOnlySequence<byte> payload) =>
    {
        var reader = new PacketReader(payload);
        var name = reader.ReadUtf8();
        connection.TrySend(name, static (ref PacketWriter writer, string player) =>
        {
            writer.WriteInt32(Messages.Welcome);
            writer.WriteUtf8($"welcome, {player}");
        });
    })
    .Map(Messages.Move, static (Connection connection, in ReadOnlySequence<byte> payload) =>
    {
        var reader = new PacketReader(payload);
        var position = (X: reader.ReadInt32(), Y: reader.ReadInt32());
        connection.TrySend(position, static (ref PacketWriter writer, (int X, int Y) at) =>
        {
            writer.WriteInt32(Messages.Moved);
            writer.WriteInt32(at.X);
            writer.WriteInt32(at.Y);
        });
    });

await using var server = new BerthServer(new BerthServerOptions { EndPoint = new(IPAddress.Loopback, 0) }, serverRoutes);
server.Start();

var replies = Channel.CreateUnbounded<string>();
var clientRoutes = new PacketRouter()
    .Map(Messages.Welcome, (Connection connection, in ReadOnlySequence<byte> payload) =>
    {
        var reader = new PacketReader(payload);
        replies.Writer.TryWrite($"welcome packet: \"{reader.ReadUtf8()}\"");
    })
    .Map(Messages.Moved, (Connection connection, in ReadOnlySequence<byte> payload) =>
    {
        var reader = new PacketReader(payload);
        replies.Writer.TryWrite($"moved packet: now at ({reader.ReadInt32()}, {reader.ReadInt32()})");
    });

await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, clientRoutes);
var toServer = await client.ConnectAsync();

await toServer.SendAsync("alice", static (ref PacketWriter writer, string name) =>
{
    writer.WriteInt32(Messages.Login);
    writer.WriteUtf8(name);
});
await toServer.SendAsync((X: 3, Y: 4), static (ref PacketWriter writer, (int X, int Y) to) =>
{
    writer.WriteInt32(Messages.Move);
    writer.WriteInt32(to.X);
    writer.WriteInt32(to.Y);
});

using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
for (var i = 0; i < 2; i++)
{
    Console.WriteLine(await replies.Reader.ReadAsync(timeout.Token));
}

Console.WriteLine("routing ok: 2 packets routed each way");

/// <summary>The message ids both sides agree on.</summary>
static class Messages
{
    public const int Login = 1;
    public const int Move = 2;
    public const int Welcome = 101;
    public const int Moved = 102;
}
