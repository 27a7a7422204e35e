using System.Globalization;
using System.Net;
using Berth.KestrelEcho;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;

// usage: Berth.KestrelEcho [--port 0]; prints "listening on 127.0.0.1:PORT" once Kestrel accepts, stops on SIGTERM or SIGINT.
var port = 0;
for (var i = 0; i + 1 < args.Length; i += 2)
{
    if (args[i] != "--port" || !int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535)
    {
        Console.Error.WriteLine("usage: Berth.KestrelEcho [--port 0]");
        return 2;
    }
}

var builder = WebApplication.CreateSlimBuilder();
builder.Logging.ClearProviders();
builder.WebHost.ConfigureKestrel(kestrel =>
    kestrel.Listen(IPAddress.Loopback, port, listen => listen.UseConnectionHandler<FramedEchoHandler>()));
await using var app = builder.Build();
await app.StartAsync();

var address = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single();
Console.WriteLine($"listening on 127.0.0.1:{new Uri(address).Port}");
await app.WaitForShutdownAsync();
return 0;
