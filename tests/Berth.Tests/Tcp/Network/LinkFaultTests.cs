using System.Text.RegularExpressions;
using Berth.Tcp;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp.Network;

/// <summary>
/// Faults across a real network boundary: <c>berth serve</c> in one network namespace, a reconnecting client in
/// another, joined by a veth pair that the test cuts mid-stream and restores.
/// </summary>
public sealed partial class LinkFaultTests(ITestOutputHelper output)
{
    [NetworkNamespaceFact]
    public async Task AClientAcrossACutLinkNoticesTheDeadPeerAndReconnects()
    {
        var counts = await CutAndRestoreAsync();
        Assert.Equal(0, counts["duplicated"]);
        Assert.Equal(0, counts["unexpected"]);
        Assert.True(counts["connects"] >= 2);
        Assert.True(counts["echoed-after-reconnect"] > 0, "nothing was echoed over the new connection");
    }

    [NetworkNamespaceFact]
    public Task EveryFrameAcceptedAcrossACutLinkIsDeliveredOnceOrReportedUnsent() =>
        EveryFrameDeliveredOnceOrReportedUnsentAsync(HandlerScheduling.Inline);

    [NetworkNamespaceFact]
    public Task EveryFrameAcceptedAcrossACutLinkIsDeliveredOnceOrReportedUnsentOverTheRuntimesSocketEngine() =>
        EveryFrameDeliveredOnceOrReportedUnsentAsync(HandlerScheduling.ThreadPool);

    /// <summary>
    /// <see cref="HandlerScheduling.Inline"/> runs the client over Berth's epoll transport,
    /// <see cref="HandlerScheduling.ThreadPool"/> over the runtime's socket engine; each reads the acknowledgements.
    /// </summary>
    private async Task EveryFrameDeliveredOnceOrReportedUnsentAsync(HandlerScheduling scheduling)
    {
        var counts = await CutAndRestoreAsync(scheduling);
        Assert.Equal(0, counts["duplicated"]);
        Assert.Equal(0, counts["unexpected"]);
        Assert.True(counts["unsent"] > 0, "the cut left no frame unacknowledged, so the test proved nothing");
        Assert.Equal(counts["missing"], counts["unsent"]);
        Assert.Equal(counts["accepted"], counts["echoed-once"] + counts["unsent"]);
    }

    /// <summary>
    /// Starts the server and the client (500 numbered frames, one per 20 ms), cuts the link a second in, waits for the
    /// client to give the connection up (idle timeout: nothing echoed for 2 s), restores the link a second later, and
    /// returns the client's final ledger.
    /// </summary>
    private async Task<Dictionary<string, long>> CutAndRestoreAsync(HandlerScheduling scheduling = HandlerScheduling.Inline)
    {
        using var link = VethLink.Create();
        using var server = new NamespacedProcess(link.ServerNamespace, "Berth.Cli.dll", "serve", "--host", link.ServerAddress, "--port", "7000");
        await server.LineStartingWithAsync("listening on ");
        using var client = new NamespacedProcess(link.ClientNamespace, "Berth.FaultPeer.dll", link.ServerAddress, "7000", "500", "20", scheduling.ToString());
        await client.LineStartingWithAsync("connected");
        await Task.Delay(TimeSpan.FromSeconds(1));

        link.Cut();
        var dead = await client.LineStartingWithAsync("disconnected ");
        await Task.Delay(TimeSpan.FromSeconds(1));
        link.Restore();
        await client.LineStartingWithAsync("connected");
        var summary = await client.LineStartingWithAsync("summary ");
        output.WriteLine(string.Join(Environment.NewLine, client.Lines));

        Assert.StartsWith("disconnected IdleTimeout", dead);
        return Summary().Matches(summary).ToDictionary(m => m.Groups[1].Value, m => long.Parse(m.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    [GeneratedRegex(@"([a-z-]+) (\d+)")]
    private static partial Regex Summary();
}
