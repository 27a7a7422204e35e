using System.Buffers;
using System.Net;
using System.Text;
using Berth.Connections;

// An echo server on a free loopback port, and a client in the same program that sends three frames and waits
// for each to come back.
await using var server = new BerthServer(new BerthServerOptions { EndPoint = new(IPAddress.Loopback, 0) }, new Echo());
server.Start();
Console.WriteLine($"server listening on {server.EndPoint}");

var replies = new Replies();
await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, replies);
var connection = await client.ConnectAsync();

string[] messages = ["hello", "from", "berth"];
foreach (var message in messages)
{
    await connection.SendAsync(Encoding.UTF8.GetBytes(message));
    Console.WriteLine($"sent {message}, echoed {await replies.NextAsync()}");
}

Console.WriteLine($"round trip ok: {messages.Length} frames echoed");

/// <summary>The server side: sends every frame back on the connection it came from.</summary>
sealed class Echo : ConnectionHandler
{
    // The body is a slice of the pooled receive ring, valid only during the call: TrySend copies it into the
    // connection's send queue.
    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => connection.TrySend(body);
}

/// <summary>The client side: hands each echoed frame, as text, to whoever awaits the next one.</summary>
sealed class Replies : ConnectionHandler
{
    private readonly SemaphoreSlim _received = new(0);
    private readonly Queue<string> _texts = new();

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        lock (_texts)
        {
            _texts.Enqueue(Encoding.UTF8.GetString(body));
        }

        _received.Release();
    }

    public async Task<string> NextAsync()
    {
        if (!await _received.WaitAsync(TimeSpan.FromSeconds(10)))
        {
            throw new TimeoutException("no echo within 10 s");
        }

        lock (_texts)
        {
            return _texts.Dequeue();
        }
    }
}
