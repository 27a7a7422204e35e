using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages.Requests;
using Berth.Tests.Tcp;

namespace Berth.Tests.Messages.Requests;

/// <summary>A server and a connected client over loopback, each with a packet router, for request/response tests.</summary>
internal sealed class RequestPeers : IAsyncDisposable
{
    private RequestPeers(BerthServer server, BerthClient client, Connection connection)
    {
        Server = server;
        Client = client;
        Connection = connection;
    }

    public BerthServer Server { get; }

    public BerthClient Client { get; }

    /// <summary>The client's connection, which sends the requests.</summary>
    public Connection Connection { get; }

    public static async Task<RequestPeers> StartAsync(PacketRouter serverRouter, BerthServerOptions? serverOptions = null, BerthClientOptions? clientOptions = null)
    {
        var server = EchoTests.Start(serverOptions ?? new BerthServerOptions(), serverRouter);
        clientOptions ??= new BerthClientOptions();
        clientOptions.Port = server.EndPoint.Port;
        var client = new BerthClient(clientOptions, new PacketRouter());
        return new RequestPeers(server, client, await client.ConnectAsync());
    }

    public async ValueTask DisposeAsync()
    {
        await Client.DisposeAsync();
        await Server.DisposeAsync();
    }
}

/// <summary>An asynchronous handler whose replies the test releases one by one, in any order.</summary>
internal sealed class HeldReplies
{
    private readonly ConcurrentDictionary<long, TaskCompletionSource<Pong>> _held = new();
    private int _started;

    public int Started => Volatile.Read(ref _started);

    public ValueTask<Pong> Handle(Connection connection, Ping ping)
    {
        var reply = _held.GetOrAdd(ping.Value, static _ => new TaskCompletionSource<Pong>(TaskCreationOptions.RunContinuationsAsynchronously));
        Interlocked.Increment(ref _started);
        return new ValueTask<Pong>(reply.Task);
    }

    public void Release(long value) => _held[value].SetResult(new Pong { Value = value * 10 });

    public void Reject(long value, RequestRejectedException error) => _held[value].SetException(error);

    public Task WaitForStarted(int count) => Waits.Until(() => Started >= count);
}

/// <summary>Counts the late replies on one meter factory's <c>Berth</c> meter.</summary>
internal sealed class LateReplyCounter : IMeterFactory
{
    private readonly List<Meter> _meters = [];
    private readonly MeterListener _listener = new();
    private long _late;

    public LateReplyCounter()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (ReferenceEquals(instrument.Meter.Scope, this) && instrument.Name == "berth.requests.late_replies")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref _late, value));
        _listener.Start();
    }

    public long Late => Interlocked.Read(ref _late);

    public Meter Create(MeterOptions options)
    {
        var meter = new Meter(options.Name, options.Version, options.Tags, scope: this);
        lock (_meters)
        {
            _meters.Add(meter);
        }

        return meter;
    }

    public void Dispose()
    {
        _listener.Dispose();
        lock (_meters)
        {
            _meters.ForEach(m => m.Dispose());
        }
    }
}
