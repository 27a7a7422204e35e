using System.Globalization;
using Berth.Results;
using Berth.Results.Reports;
using static Berth.Cli.Compare.CompareTargets;

namespace Berth.Cli.Compare;

/// <summary>
/// Judges one workload's targets from its samples, round by round: in each round Berth ran the cell paired with each
/// other server, the load alternating between the two, so a round gives one ratio per pair, and a target is judged on the median of those ratios.
/// </summary>
internal static class CellTargets
{
    /// <summary>The peers Berth must be 1.5x of; SuperSocket is reported beside them without a target.</summary>
    private static readonly string[] PeersWithTarget = [EchoServers.DotNetty, EchoServers.NetCoreServer];

    public static TargetCheck VsC(IReadOnlyList<CellSample> samples) =>
        AtLeastCheck($"≥ {Times(ThroughputVsC)} C", "Berth/C", Rounds(samples, EchoServers.Berth, EchoServers.C, Throughput), ThroughputVsC);

    public static TargetCheck CpuVsC(IReadOnlyList<CellSample> samples) =>
        AtMostCheck($"CPU/msg ≤ {Times(CompareTargets.CpuVsC)} C", "Berth/C, CPU per message", Rounds(samples, EchoServers.Berth, EchoServers.C, Cpu), CompareTargets.CpuVsC);

    /// <summary>DotNetty's and NetCoreServer's targets, then SuperSocket's ratio, reported without one.</summary>
    public static IEnumerable<TargetCheck> Peers(IReadOnlyList<CellSample> samples, IReadOnlyList<ServerNotRun> notRun)
    {
        foreach (var peer in PeersWithTarget)
        {
            yield return PeerCheck(samples, peer, notRun);
        }

        const string superSocket = "SuperSocket, no target";
        yield return Absent(samples, EchoServers.SuperSocket, notRun, superSocket)
            ?? Reported(superSocket, "Berth/SuperSocket", Rounds(samples, EchoServers.Berth, EchoServers.SuperSocket, Throughput));
    }

    /// <summary>
    /// ≥ 2x Kestrel where the C echo itself is ≥ 2.5x Kestrel (the median of its rounds' ratios); elsewhere the ratio
    /// is reported without a target.
    /// </summary>
    public static TargetCheck Kestrel(IReadOnlyList<CellSample> samples, IReadOnlyList<ServerNotRun> notRun)
    {
        var target = $"≥ {Times(ThroughputVsKestrel)} Kestrel where C ≥ {Times(CVsKestrelForTarget)} Kestrel";
        if (Absent(samples, EchoServers.Kestrel, notRun, target) is { } absent)
        {
            return absent;
        }

        var rounds = Rounds(samples, EchoServers.Berth, EchoServers.Kestrel, Throughput);
        var cVsKestrel = Median(Rounds(samples, EchoServers.C, EchoServers.Kestrel, Throughput));
        return cVsKestrel >= CVsKestrelForTarget
            ? AtLeastCheck(target, $"Berth/Kestrel (C is {Ratio(cVsKestrel)} Kestrel)", rounds, ThroughputVsKestrel)
            : Reported(target, $"Berth/Kestrel, reported: C is {Ratio(cVsKestrel)} Kestrel", rounds);
    }

    /// <summary>≥ 1.5x the peer; where 1.5x the peer is above the C echo, ≥ 0.95x the C echo counts as matching it.</summary>
    private static TargetCheck PeerCheck(IReadOnlyList<CellSample> samples, string peer, IReadOnlyList<ServerNotRun> notRun)
    {
        var target = $"≥ {Times(ThroughputVsPeer)} {peer}";
        if (Absent(samples, peer, notRun, target) is { } absent)
        {
            return absent;
        }

        var peerMedian = Median(samples.Where(s => s.Server == peer).Select(Throughput).ToList());
        var cMedian = Median(samples.Where(s => s.Server == EchoServers.C).Select(Throughput).ToList());
        return peerMedian * ThroughputVsPeer > cMedian
            ? AtLeastCheck(target, $"Berth/C ≥ {Fixed(MatchingC)}: {Times(ThroughputVsPeer)} {peer} is above C", Rounds(samples, EchoServers.Berth, EchoServers.C, Throughput), MatchingC)
            : AtLeastCheck(target, $"Berth/{peer}", Rounds(samples, EchoServers.Berth, peer, Throughput), ThroughputVsPeer);
    }

    /// <summary>
    /// The ratio <paramref name="top"/>/<paramref name="bottom"/> of every round in which both ran and the bottom one
    /// measured something; a round where the top one failed counts as 0. A sample paired with another server's run
    /// (Berth's) counts only in the ratio with that server.
    /// </summary>
    public static IReadOnlyList<double> Rounds(IReadOnlyList<CellSample> samples, string top, string bottom, Func<CellSample, double> value) =>
        [.. samples.Where(s => s.Server == top && (s.Partner is null || s.Partner == bottom))
            .Join(samples.Where(s => s.Server == bottom && (s.Partner is null || s.Partner == top)), s => s.Round, s => s.Round, (t, b) => (Top: value(t), Bottom: value(b)))
            .Where(pair => pair.Bottom > 0 && !double.IsNaN(pair.Top))
            .Select(pair => pair.Top / pair.Bottom)];

    public static double Throughput(CellSample sample) => sample.Outcome.MessagesPerSecond;

    public static double Cpu(CellSample sample) => sample.CpuSecondsPerMillion;

    public static double Median(IReadOnlyList<double> values) => Spread.Of(values).Median;

    private static TargetCheck? Absent(IReadOnlyList<CellSample> samples, string server, IReadOnlyList<ServerNotRun> notRun, string target)
    {
        if (samples.Any(s => s.Server == server))
        {
            return null;
        }

        var reason = notRun.FirstOrDefault(n => n.Server == server);
        return reason is null
            ? new TargetCheck(target, $"{server} not measured", [], null, TargetVerdict.NotMeasured)
            : new TargetCheck(target, $"{server} not run: {reason.Reason}", [], null, NotRun);
    }

    private static TargetCheck AtLeastCheck(string target, string ratio, IReadOnlyList<double> rounds, double required) =>
        Judged(target, ratio, rounds, () => MedianAtLeast(rounds, required));

    private static TargetCheck AtMostCheck(string target, string ratio, IReadOnlyList<double> rounds, double required) =>
        Judged(target, ratio, rounds, () => MedianAtMost(rounds, required));

    private static TargetCheck Judged(string target, string ratio, IReadOnlyList<double> rounds, Func<string> mark)
    {
        var median = Median(rounds);
        return new TargetCheck(target, ratio, rounds, rounds.Count == 0 ? null : median, mark());
    }

    private static TargetCheck Reported(string target, string ratio, IReadOnlyList<double> rounds) =>
        new(target, ratio, rounds, rounds.Count == 0 ? null : Median(rounds), rounds.Count == 0 ? TargetVerdict.NotMeasured : NoTarget);

    private static string Times(double value) => Fixed(value) + "x";

    private static string Ratio(double value) => double.IsNaN(value) ? "unmeasured x" : value.ToString("0.00", CultureInfo.InvariantCulture) + "x";

    private static string Fixed(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
