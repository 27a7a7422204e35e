using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Berth.Tcp;

namespace Berth.Tests.Tcp;

public sealed class MetricsTests
{
    [Fact]
    public async Task TheBerthMeterReportsFramesBytesAndDisconnectsByReason()
    {
        var totals = new ConcurrentDictionary<string, long>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == TcpMetrics.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var name = instrument.Name;
            foreach (var tag in tags)
            {
                name += $"[{tag.Key}={tag.Value}]";
            }

            totals.AddOrUpdate(name, value, (_, sum) => sum + value);
        });
        listener.Start();

        var server = EchoTests.Start(new TcpServerOptions());
        using (var client = new RawClient(server.EndPoint))
        {
            client.SendFrame(new byte[100]);
            client.ReceiveFrame();
        }

        await server.StopAsync().Within();

        // Other tests run in parallel and add to the same process-wide instruments, so only lower bounds hold.
        Assert.True(totals.GetValueOrDefault("berth.tcp.frames.received") >= 1);
        Assert.True(totals.GetValueOrDefault("berth.tcp.frames.sent") >= 1);
        Assert.True(totals.GetValueOrDefault("berth.tcp.bytes.received") >= 104);
        Assert.True(totals.GetValueOrDefault("berth.tcp.bytes.sent") >= 104);
        Assert.True(totals.GetValueOrDefault("berth.tcp.connections.opened") >= 1);
        Assert.Contains(totals.Keys, k => k.StartsWith("berth.tcp.disconnects[reason=", StringComparison.Ordinal));
    }
}
