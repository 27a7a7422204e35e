using System.Net;
using Berth.Benchmarks.Calls;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;

// usage: Berth.GrpcPeer; prints "listening on 127.0.0.1:PORT", serves Calls.Echo over HTTP/2 without TLS, and exits
// when standard input ends (AllocatedBytesProbe). Kestrel's and gRPC's defaults are kept (100 streams per HTTP/2
// connection, 4 MiB messages, no compression); the two settings that differ from a template are the endpoint's
// protocol (HTTP/2 only: Kestrel speaks HTTP/2 without TLS only on such an endpoint) and no logging providers
// (a service in production logs at Warning, and nothing here logs above it).
var builder = WebApplication.CreateSlimBuilder();
builder.Logging.ClearProviders();
builder.Services.AddGrpc();
builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen => listen.Protocols = HttpProtocols.Http2));
await using var app = builder.Build();
app.MapGrpcService<CallsService>();
await app.StartAsync();

var address = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single();
Console.WriteLine($"listening on 127.0.0.1:{new Uri(address).Port}");
AllocatedBytesProbe.Start();
await app.WaitForShutdownAsync();
