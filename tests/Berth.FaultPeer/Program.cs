using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.Net.Sockets;
using Berth.FaultPeer;
using Berth.Connections;
using BerthClient = Berth.Connections.BerthClient;

// A reconnecting client for the network fault tests, run inside a network namespace: sends numbered frames at a
// steady pace, counts every echo by number and every frame reported unsent, and reports each event on a line.
var host = args[0];
var port = int.Parse(args[1], CultureInfo.InvariantCulture);
var frames = int.Parse(args[2], CultureInfo.InvariantCulture);
var pace = TimeSpan.FromMilliseconds(int.Parse(args[3], CultureInfo.InvariantCulture));
var scheduling = args.Length > 4 ? Enum.Parse<HandlerScheduling>(args[4]) : HandlerScheduling.Inline;

var ledger = new FrameLedger(frames);
await using var client = new BerthClient(
    new BerthClientOptions
    {
        Host = host,
        Port = port,
        ConnectTimeout = TimeSpan.FromSeconds(1),
        IdleTimeout = TimeSpan.FromSeconds(2),
        KeepAlive = true,
        HandlerScheduling = scheduling,
        Reconnect = true,
        ReconnectInitialDelay = TimeSpan.FromMilliseconds(200),
        ReconnectMaxDelay = TimeSpan.FromSeconds(2),
    },
    ledger);

for (var attempt = 0; client.Connection is null; attempt++)
{
    try
    {
        await client.ConnectAsync();
    }
    catch (Exception e) when (e is SocketException or TimeoutException && attempt < 50)
    {
        await Task.Delay(200);
    }
}

var body = new byte[256];
for (var id = 0; id < frames; id++)
{
    await Task.Delay(pace);
    BinaryPrimitives.WriteInt32LittleEndian(body, id);
    if (client.Connection is { } connection && connection.TrySend(body))
    {
        ledger.Accepted(id);
    }
}

await ledger.AllSettledAsync(TimeSpan.FromSeconds(3));
Console.WriteLine(ledger.Summary());
