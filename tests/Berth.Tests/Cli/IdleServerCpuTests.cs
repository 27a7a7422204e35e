using System.Net;
using Berth.Cli.Compare;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>
/// The event loops poll for a bounded time after their last event before they sleep (LoopSpin); once the connections
/// fall quiet, the server must sleep. <c>berth serve</c> runs as its own process so its CPU time is its own.
/// </summary>
public sealed class IdleServerCpuTests
{
    private const int Clients = 16;
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(4);

    [Fact]
    public async Task AServerWhoseConnectionsFellQuietUsesNoCpu()
    {
        await using var serve = new BerthProcess("serve", "--port", "0");
        var port = await ServeSignalTests.ListeningPortAsync(serve);
        var clients = new List<RawClient>();
        try
        {
            for (var i = 0; i < Clients; i++)
            {
                var client = new RawClient(new IPEndPoint(IPAddress.Loopback, port));
                clients.Add(client);
                client.SendFrame("ping"u8);
                Assert.Equal("ping"u8.ToArray(), client.ReceiveFrame());
            }

            await Task.Delay(Settle);
            var before = LinuxProcess.CpuSeconds(serve.Id);
            await Task.Delay(Interval);
            var used = LinuxProcess.CpuSeconds(serve.Id) - before;

            // A loop that kept polling would use most of a core over the interval even on a starved machine; an idle
            // server only runs its timeout sweeper. The bound is a tenth of a core: generous, not a timing.
            Assert.True(used < Interval.TotalSeconds / 10, $"the idle server used {used:0.000} s of CPU over {Interval.TotalSeconds} s");
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }
    }
}
