using System.Text.RegularExpressions;
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
        Assert.True(counts["echoed-once"] > 0);
        Assert.Equal(counts["accepted"], counts["echoed-once"] + counts["missing"]);
    }

    [NetworkNamespaceFact(Skip = "Not met by the engine: frames written to the socket before the link died are neither delivered nor counted in DisconnectInfo.UnsentFrames (89 of 435 in one run); it needs acknowledgements above TCP.")]
    public async Task EveryFrameAcceptedAcrossACutLinkIsDeliveredOnceOrReportedUnsent()
    {
        var counts = await CutAndRestoreAsync();
        Assert.Equal(0, counts["duplicated"]);
        Assert.Equal(counts["missing"], counts["unsent"]);
    }

    /// <summary>
    /// Starts the server and the client (500 numbered frames, one per 20 ms), cuts the link a second in, waits for the
    /// client to give the connection up (idle timeout: nothing echoed for 2 s), restores the link a second later, and
    /// returns the client's final ledger.
    /// </summary>
    private async Task<Dictionary<string, long>> CutAndRestoreAsync()
    {
        using var link = VethLink.Create();
        using var server = new NamespacedProcess(link.ServerNamespace, "Berth.Cli.dll", "serve", "--host", link.ServerAddress, "--port", "7000");
        await server.LineStartingWithAsync("listening on ");
        using var client = new NamespacedProcess(link.ClientNamespace, "Berth.FaultPeer.dll", link.ServerAddress, "7000", "500", "20");
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
