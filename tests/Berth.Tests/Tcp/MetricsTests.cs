using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Berth.Connections;

namespace Berth.Tests.Tcp;

public sealed class MetricsTests
{
    private const int BodyLength = 100;
    private const int FrameLength = BodyLength + 4;

    [Fact]
    public async Task ServerMetricsFromItsMeterFactoryCountExactlyItsOwnConnections()
    {
        using var factory = new OwnMeterFactory();
        using var totals = new MeterTotals(factory);

        var server = EchoTests.Start(new BerthServerOptions { MeterFactory = factory });
        using (var leaving = new RawClient(server.EndPoint))
        {
            for (var i = 0; i < 3; i++)
            {
                leaving.SendFrame(new byte[BodyLength]);
            }

            for (var i = 0; i < 3; i++)
            {
                leaving.ReceiveFrame();
            }
        }

        using var staying = new RawClient(server.EndPoint);
        staying.SendFrame(new byte[BodyLength]);
        staying.ReceiveFrame();
        while (server.ConnectionCount != 1)
        {
            await Task.Delay(10);
        }

        Assert.Equal(1, totals["berth.connections.active"]);
        await server.StopAsync().Within();

        Assert.Equal(4, totals["berth.frames.received"]);
        Assert.Equal(4, totals["berth.frames.sent"]);
        Assert.Equal(4 * FrameLength, totals["berth.bytes.received"]);
        Assert.Equal(4 * FrameLength, totals["berth.bytes.sent"]);
        Assert.Equal(2, totals["berth.connections.opened"]);
        Assert.Equal(0, totals["berth.connections.active"]);
        Assert.Equal(0, totals["berth.send_queue.bytes"]);
        Assert.Equal(1, totals["berth.disconnects[reason=ClosedByPeer]"]);
        Assert.Equal(1, totals["berth.disconnects[reason=ServerStopping]"]);
        Assert.Equal(
            ["berth.bytes.received", "berth.bytes.sent", "berth.connections.active", "berth.connections.opened",
             "berth.disconnects[reason=ClosedByPeer]", "berth.disconnects[reason=ServerStopping]",
             "berth.frames.received", "berth.frames.sent", "berth.send_queue.bytes"],
            totals.Names);
    }

    [Fact]
    public async Task ClientMetricsCountTheClientSideOfAnExchange()
    {
        using var factory = new OwnMeterFactory();
        using var totals = new MeterTotals(factory);
        await using var server = EchoTests.Start(new BerthServerOptions());
        var echoes = new EchoCounter(2);
        var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port, MeterFactory = factory }, echoes);
        var connection = await client.ConnectAsync().Within();
        Assert.True(connection.TrySend(new byte[BodyLength]));
        Assert.True(connection.TrySend(new byte[BodyLength]));
        await echoes.All.Within();
        await client.DisposeAsync();
        await connection.Closed.Within();

        Assert.Equal(2, totals["berth.frames.received"]);
        Assert.Equal(2, totals["berth.frames.sent"]);
        Assert.Equal(2 * FrameLength, totals["berth.bytes.received"]);
        Assert.Equal(2 * FrameLength, totals["berth.bytes.sent"]);
        Assert.Equal(1, totals["berth.connections.opened"]);
        Assert.Equal(0, totals["berth.connections.active"]);
        Assert.Equal(1, totals.Names.Count(n => n.StartsWith("berth.disconnects[", StringComparison.Ordinal)));
    }

    /// <summary>Counts echoes and completes once the expected number arrived.</summary>
    private sealed class EchoCounter(int expected) : ConnectionHandler
    {
        private readonly TaskCompletionSource _all = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _received;

        public Task All => _all.Task;

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (Interlocked.Increment(ref _received) == expected)
            {
                _all.TrySetResult();
            }
        }
    }

    /// <summary>A meter factory of this test's own, so parallel tests on other factories or the default meter do not add to it.</summary>
    private sealed class OwnMeterFactory : IMeterFactory
    {
        private readonly List<Meter> _meters = [];

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
            lock (_meters)
            {
                _meters.ForEach(m => m.Dispose());
            }
        }
    }

    /// <summary>Sums every measurement of the meters one factory created, by instrument name and tags.</summary>
    private sealed class MeterTotals : IDisposable
    {
        private readonly ConcurrentDictionary<string, long> _totals = new();
        private readonly MeterListener _listener = new();

        public MeterTotals(IMeterFactory factory)
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (ReferenceEquals(instrument.Meter.Scope, factory))
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
            {
                var name = instrument.Name;
                foreach (var tag in tags)
                {
                    name += $"[{tag.Key}={tag.Value}]";
                }

                _totals.AddOrUpdate(name, value, (_, sum) => sum + value);
            });
            _listener.Start();
        }

        public long this[string name] => _totals.GetValueOrDefault(name);

        public IReadOnlyList<string> Names => [.. _totals.Keys.Order(StringComparer.Ordinal)];

        public void Dispose() => _listener.Dispose();
    }
}
