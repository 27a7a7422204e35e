using System.Net;
using Berth.Benchmarks.Calls;
using Berth.Benchmarks.Messages;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages.Requests;

// usage: Berth.RequestServer; prints "listening on 127.0.0.1:PORT", answers every Position request with the same
// position one tick later (a synchronous handler), and exits when standard input ends (AllocatedBytesProbe).
// Default options: the connection bound (10,000) and the per-connection request bounds hold the comparison's cells.
var router = new PacketRouter().OnRequest(static (Connection _, in Position position) => position with { Tick = position.Tick + 1 });
await using var server = new BerthServer(new BerthServerOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) }, router);
server.Start();
Console.WriteLine($"listening on 127.0.0.1:{server.EndPoint.Port}");
AllocatedBytesProbe.Start();
await Task.Delay(Timeout.Infinite);
