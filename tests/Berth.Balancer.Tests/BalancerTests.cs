using System.Net;
using Berth.Cli.Balancer;
using Berth.Results;
using Xunit.Abstractions;

namespace Berth.Balancer.Tests;

[CollectionDefinition(nameof(BalancerTests), DisableParallelization = true)]
public sealed class BalancerCollection;

/// <summary>
/// The real haproxy (bash scripts/setup.sh --balancer) in front of two <c>berth serve</c> processes on loopback: the
/// backends see each client's address, a spoofed header is refused, a backend given SIGTERM is marked down before it
/// stops accepting, and a rolling restart accounts for every frame; nginx's stream module passes the address too.
/// One at a time: each runs up to three processes.
/// </summary>
[Collection(nameof(BalancerTests))]
public sealed class BalancerTests(ITestOutputHelper output)
{
    private static readonly IPAddress ClientAddress = IPAddress.Parse("127.0.0.3");
    private static readonly IPAddress SpooferAddress = IPAddress.Parse("127.0.0.2");

    [Fact]
    public async Task BackendsSeeEachClientsOwnAddress()
    {
        await using var balancer = await BalancedBackends.StartAsync(TimeSpan.FromSeconds(1));
        var clients = new List<FramedSocket>();
        try
        {
            // Until each backend has had a client: round robin alternates, but a check that HAProxy judged late may
            // take a backend out for a moment, so the count is bounded rather than fixed at two.
            while (!(SawClient(balancer.A) && SawClient(balancer.B)))
            {
                Assert.True(clients.Count < 20, $"one backend never got a client:\n{balancer.Haproxy.Process.Output}");
                var client = await FramedSocket.ConnectAsync(ClientAddress, balancer.Haproxy.Port);
                clients.Add(client);
                Assert.Equal("ping"u8.ToArray(), await client.EchoAsync("ping"u8.ToArray()));
                var line = await await Task.WhenAny(balancer.A.ConnectionFromAsync(client.LocalEndPoint), balancer.B.ConnectionFromAsync(client.LocalEndPoint));
                Assert.EndsWith($" from 127.0.0.3:{client.LocalEndPoint.Port}", line);
            }
        }
        finally
        {
            clients.ForEach(c => c.Dispose());
        }

        static bool SawClient(Backend backend) => backend.Process.Output.Contains(" from 127.0.0.3:", StringComparison.Ordinal);
    }

    [Fact]
    public async Task NginxsStreamModuleGivesTheBackendEachClientsOwnAddress()
    {
        await using var backend = await Backend.StartAsync("a", TimeSpan.Zero);
        await using var nginx = await NginxStream.StartAsync(backend);
        using var client = await FramedSocket.ConnectAsync(ClientAddress, nginx.Port);
        Assert.Equal("ping"u8.ToArray(), await client.EchoAsync("ping"u8.ToArray()));
        Assert.EndsWith($" from 127.0.0.3:{client.LocalEndPoint.Port}", await backend.ConnectionFromAsync(client.LocalEndPoint));
    }

    [Fact]
    public async Task ASpoofedHeaderFromAnUntrustedAddressIsRefusedWhileAWitnessKeepsEchoing()
    {
        await using var balancer = await BalancedBackends.StartAsync(TimeSpan.FromSeconds(1));
        using var witness = await FramedSocket.ConnectAsync(ClientAddress, balancer.Haproxy.Port);
        Assert.Equal("before"u8.ToArray(), await witness.EchoAsync("before"u8.ToArray()));

        foreach (var backend in new[] { balancer.A, balancer.B })
        {
            using var spoofer = await FramedSocket.ConnectAsync(SpooferAddress, backend.Port, "PROXY TCP4 198.51.100.7 127.0.0.1 40000 7000\r\n"u8.ToArray());
            var refused = await backend.Process.LineAsync(line => line.Contains($"(peer {spoofer.LocalEndPoint},", StringComparison.Ordinal));
            Assert.Contains("closed: ProxyHeaderUntrusted", refused);

            // The witness echoes while the spoofer's socket is still open, and after its refusal.
            Assert.Equal("during"u8.ToArray(), await witness.EchoAsync("during"u8.ToArray()));
            Assert.True(await spoofer.ClosedByPeerAsync());
        }

        Assert.DoesNotContain("198.51.100.7", balancer.A.Process.Output);
        Assert.DoesNotContain("198.51.100.7", balancer.B.Process.Output);
    }

    [Fact]
    public async Task ABackendGivenSigtermIsMarkedDownBeforeItStopsAndNewConnectionsGoToTheOther()
    {
        await using var balancer = await BalancedBackends.StartAsync(TimeSpan.FromSeconds(5));
        using var first = await FramedSocket.ConnectAsync(ClientAddress, balancer.Haproxy.Port);
        using var second = await FramedSocket.ConnectAsync(ClientAddress, balancer.Haproxy.Port);
        Assert.Equal("a"u8.ToArray(), await first.EchoAsync("a"u8.ToArray()));
        Assert.Equal("b"u8.ToArray(), await second.EchoAsync("b"u8.ToArray()));
        var onA = balancer.A.Process.Output.Contains($" from {first.LocalEndPoint}", StringComparison.Ordinal) ? first : second;
        await balancer.A.ConnectionFromAsync(onA.LocalEndPoint);

        var mark = balancer.Haproxy.Process.LineCount;
        balancer.A.Process.Signal("TERM");
        await balancer.Haproxy.ServerWentAsync("a", "DOWN", mark);
        Assert.DoesNotContain(": stopping,", balancer.A.Process.Output);

        // Draining: the established connection is still served, and a new one goes to b.
        Assert.Equal("still"u8.ToArray(), await onA.EchoAsync("still"u8.ToArray()));
        using var fresh = await FramedSocket.ConnectAsync(ClientAddress, balancer.Haproxy.Port);
        Assert.Equal("fresh"u8.ToArray(), await fresh.EchoAsync("fresh"u8.ToArray()));
        await balancer.B.ConnectionFromAsync(fresh.LocalEndPoint);

        // Then a stops: the established connection is closed, and a exits in order with every buffer back.
        Assert.True(await onA.ClosedByPeerAsync());
        Assert.Equal(0, await balancer.A.Process.ExitedAsync());
        var lines = balancer.A.Process.Output.Split('\n');
        var draining = Array.FindIndex(lines, l => l.StartsWith("SIGTERM: draining, health check refused", StringComparison.Ordinal));
        var stopping = Array.FindIndex(lines, l => l.StartsWith("SIGTERM: stopping,", StringComparison.Ordinal));
        Assert.InRange(draining, 0, stopping - 1);
        Assert.Contains(lines, l => l.EndsWith("closed: ServerStopping (peer " + onA.LocalEndPoint + ", 0 frame(s) unsent)", StringComparison.Ordinal));
        Assert.DoesNotContain($" from {fresh.LocalEndPoint}", balancer.A.Process.Output);
        Assert.Contains("stopped; pooled buffers outstanding: 0", balancer.A.Process.Output);
    }

    [Fact]
    public async Task ARollingRestartAccountsForEveryFrameAndEveryClientIsBackWithinFiveSeconds()
    {
        var result = await RollingRestart.RunAsync(
            new RollingRestartSettings(Clients: 100, Window: 4, SendInterval: TimeSpan.FromMilliseconds(20), DrainDelay: TimeSpan.FromSeconds(3), DataPath: null),
            output.WriteLine);

        output.WriteLine($"ledger: {result.Sent} sent, {result.Echoed} echoed, {result.Failed} failed; {result.Reconnections.Count} reconnections, the longest {result.LongestReconnect.TotalMilliseconds:0} ms");
        var data = Path.Combine(AppContext.BaseDirectory, "rolling-restart.json");
        ResultFileWriter.Write(data, RollingRestartResultFile.Build(result, RunConditions.Start("dotnet test tests/Berth.Balancer.Tests").Unmeasured()));
        output.WriteLine($"data: {data}");

        Assert.True(result.Sent > 0);
        Assert.Equal(result.Sent, result.Echoed + result.Failed);
        Assert.Equal(0, result.Unexpected);
        Assert.Equal(0, result.Outstanding);
        Assert.Equal(0, result.ClientsStillAway);
        Assert.All(result.Restarts, restart =>
        {
            Assert.True(restart.MarkedDownBeforeStopping, $"{restart.Backend} was marked down only after it stopped accepting");
            Assert.True(restart.NewConnectionWentToOther, $"a connection opened during {restart.Backend}'s drain went to it");
            Assert.Equal(0, restart.ExitCode);
            Assert.True(restart.BuffersReturned, $"{restart.Backend} kept pooled buffers");
        });

        // Every client was on the second backend when it restarted, so every client moved at least once.
        Assert.Equal(100, result.Restarts[1].ClientsMoved);
        Assert.Equal(100, result.Reconnections.Select(r => r.Client).Distinct().Count());
        Assert.All(result.Reconnections, r => Assert.True(r.Took < TimeSpan.FromSeconds(5), $"client {r.Client} was back only after {r.Took}"));
        Assert.True(result.Held);
    }
}
