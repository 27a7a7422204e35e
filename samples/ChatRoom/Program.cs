using System.Net;
using System.Threading.Channels;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages;
using Berth.Messages.Requests;
using ChatRoom;

// A chat room: joining is a request with a typed reply (or an error reply when the name is taken), and every line a
// member says is broadcast as a typed message to all members. Messages are [Message] types whose code the source
// generator writes; they are serialized straight into each connection's pooled send memory. The room is in Room.cs.
await using var server = new BerthServer(new BerthServerOptions { EndPoint = new(IPAddress.Loopback, 0) }, new Room());
server.Start();

var heard = Channel.CreateUnbounded<string>();
async Task<(BerthClient Client, Connection Connection)> ConnectAsync(string who)
{
    var routes = new PacketRouter().On((Connection _, in Said said) => heard.Writer.TryWrite($"{who} heard {said.From}: {said.Text}"));
    var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, routes);
    return (client, await client.ConnectAsync());
}

var (aliceClient, alice) = await ConnectAsync("alice");
var (bobClient, bob) = await ConnectAsync("bob");
await using (aliceClient)
await using (bobClient)
{
    var welcome = await alice.RequestAsync<Join, Welcome>(new Join { Name = "alice" });
    Console.WriteLine($"alice joined: {welcome.Members} member(s) in the room");
    try
    {
        await bob.RequestAsync<Join, Welcome>(new Join { Name = "alice" });
    }
    catch (RequestRejectedException e) when (e.Code == JoinErrors.NameTaken)
    {
        Console.WriteLine($"bob refused: {e.Message}");
    }

    welcome = await bob.RequestAsync<Join, Welcome>(new Join { Name = "bob" });
    Console.WriteLine($"bob joined: {welcome.Members} member(s) in the room");

    await alice.SendAsync(new Say { Text = "hello, bob" });
    using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
    var lines = new List<string>();
    for (var i = 0; i < 2; i++)
    {
        lines.Add(await heard.Reader.ReadAsync(timeout.Token));
    }

    // The two members hear the line on their own connections, in either order.
    foreach (var line in lines.Order(StringComparer.Ordinal))
    {
        Console.WriteLine(line);
    }

    Console.WriteLine("chat room ok: 2 joined, 1 refused, 1 line broadcast to 2 members");
}
