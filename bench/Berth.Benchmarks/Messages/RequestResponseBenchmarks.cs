using System.Net;
using BenchmarkDotNet.Attributes;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages.Requests;

namespace Berth.Benchmarks.Messages;

/// <summary>
/// Request/response round trips of the five-field struct over loopback: one <see cref="BerthServer"/> answering with a
/// synchronous handler, one <see cref="BerthClient"/> connection awaiting replies, with 1 or 64 requests outstanding.
/// Results are per round trip; the memory column is the client's and server's allocation together, in-process.
/// </summary>
[MemoryDiagnoser]
public class RequestResponseBenchmarks
{
    private const int RoundTrips = 64;
    private readonly ValueTask<Position>[] _replies = new ValueTask<Position>[RoundTrips];
    private BerthServer _server = null!;
    private BerthClient _client = null!;
    private Connection _connection = null!;

    [Params(1, 64)]
    public int Outstanding { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var router = new PacketRouter().OnRequest(static (Connection _, in Position position) => position with { Tick = position.Tick + 1 });
        _server = new BerthServer(new BerthServerOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) }, router);
        _server.Start();
        _client = new BerthClient(new BerthClientOptions { Port = _server.EndPoint.Port }, new PacketRouter());
        _connection = _client.ConnectAsync().GetAwaiter().GetResult();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _client.DisposeAsync().AsTask().GetAwaiter().GetResult();
        _server.StopAsync().GetAwaiter().GetResult();
    }

    [Benchmark(OperationsPerInvoke = RoundTrips)]
    public async Task RoundTrip()
    {
        for (var done = 0; done < RoundTrips; done += Outstanding)
        {
            for (var i = 0; i < Outstanding; i++)
            {
                _replies[i] = _connection.RequestAsync<Position, Position>(new Position { Id = i, Tick = done });
            }

            for (var i = 0; i < Outstanding; i++)
            {
                await _replies[i];
            }
        }
    }
}
