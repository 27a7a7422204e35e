using System.Buffers;
using System.Net;
using System.Text;
using Berth.Hosting;
using Berth.Connections;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

// The server is a hosted service: it starts with the host, logs through the host's logging and stops gracefully
// with it. A real service would call host.RunAsync(); this sample starts the host, makes one round trip and stops.
var builder = Host.CreateApplicationBuilder(args);
builder.Logging.SetMinimumLevel(LogLevel.Warning);
builder.Services.AddBerthServer<Echo>(options => options.EndPoint = new IPEndPoint(IPAddress.Loopback, 0));
using var host = builder.Build();
await host.StartAsync();

// The server is registered too, so its ephemeral port can be read back.
var server = host.Services.GetRequiredService<BerthServer>();
Console.WriteLine($"hosted server listening on {server.EndPoint}");

var reply = new FirstReply();
await using (var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, reply))
{
    var connection = await client.ConnectAsync();
    connection.TrySend("hello, host"u8);
    Console.WriteLine($"echoed: {await reply.Text.Task.WaitAsync(TimeSpan.FromSeconds(10))}");
}

await host.StopAsync();
Console.WriteLine("host ok: echoed through the hosted server and stopped");

/// <summary>The handler the host creates: sends every frame back.</summary>
sealed class Echo : ConnectionHandler
{
    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => connection.TrySend(body);
}

/// <summary>Completes with the first frame the client receives, as text.</summary>
sealed class FirstReply : ConnectionHandler
{
    public TaskCompletionSource<string> Text { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) =>
        Text.TrySetResult(Encoding.UTF8.GetString(body));
}
