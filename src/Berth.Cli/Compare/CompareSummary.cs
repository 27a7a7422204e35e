using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>Turns the repeated samples into the report: medians, min-max, medians of the rounds' ratios and target marks.</summary>
internal static class CompareSummary
{
    public static CompareReport Build(
        Provenance provenance,
        string conditions,
        int repeat,
        IReadOnlyList<string> servers,
        IReadOnlyList<CompareCell> cells,
        IReadOnlyList<CellSample> samples,
        IReadOnlyList<IdleSample> idleSamples,
        IReadOnlyList<ServerNotRun> notRun)
    {
        var cellRows = cells.Select(cell => Cell(cell, servers, samples.Where(s => s.Cell == cell).ToList(), notRun)).ToList();
        var idleRows = idleSamples
            .GroupBy(s => s.Connections)
            .Select(group => Idle(group.Key, servers, [.. group]))
            .ToList();
        return new CompareReport(provenance, conditions, repeat, servers, cellRows, idleRows, notRun);
    }

    private static CellComparison Cell(CompareCell cell, IReadOnlyList<string> servers, List<CellSample> samples, IReadOnlyList<ServerNotRun> notRun)
    {
        var results = servers
            .Select(server => samples.Where(s => s.Server == server).ToList())
            .Where(runs => runs.Count > 0)
            .Select(runs => new ServerCellResult(
                runs[0].Server,
                runs.Count,
                Spread.Of(runs.Select(r => r.Outcome.MessagesPerSecond)),
                Spread.Of(runs.Select(r => r.Outcome.MegabytesPerSecond)),
                Spread.Of(runs.Select(r => r.Outcome.P50Microseconds)),
                Spread.Of(runs.Select(r => r.Outcome.P99Microseconds)),
                Spread.Of(runs.Select(r => r.Outcome.P999Microseconds)),
                Spread.Of(runs.Select(r => r.CpuSecondsPerMillion)),
                runs.Sum(r => r.Outcome.Errors)))
            .ToList();

        var vsC = CellTargets.VsC(samples);
        var vsKestrel = CellTargets.Kestrel(samples, notRun);
        var cpuVsC = CellTargets.CpuVsC(samples);
        return new CellComparison(
            cell.Label,
            cell.Size,
            cell.Connections,
            cell.Pipeline,
            results,
            RoundsMedian(samples, EchoServers.Berth, EchoServers.C, CellTargets.Throughput),
            RoundsMedian(samples, EchoServers.Berth, EchoServers.Kestrel, CellTargets.Throughput),
            RoundsMedian(samples, EchoServers.Berth, EchoServers.C, CellTargets.Cpu),
            vsC.Mark,
            vsKestrel.Mark,
            cpuVsC.Mark,
            [vsC, cpuVsC, vsKestrel, .. CellTargets.Peers(samples, notRun)]);
    }

    private static IdleComparison Idle(int connections, IReadOnlyList<string> servers, List<IdleSample> samples)
    {
        var results = servers
            .Select(server => samples.Where(s => s.Server == server).ToList())
            .Where(runs => runs.Count > 0)
            .Select(runs => new ServerIdleResult(runs[0].Server, runs.Count, Spread.Of(runs.Select(r => r.BytesPerConnection)), runs.Sum(r => r.Errors)))
            .ToList();
        var berth = results.FirstOrDefault(r => r.Server == EchoServers.Berth);
        var target = connections != CompareTargets.IdleTargetConnections
            ? CompareTargets.NoTarget
            : berth is null || berth.Errors > 0
            ? TargetVerdict.NotMeasured
            : TargetVerdict.AtMost(CompareTargets.Bounds(berth.BytesPerConnection), CompareTargets.IdleBytesPerConnection);
        return new IdleComparison(connections, results, target);
    }

    private static double? RoundsMedian(List<CellSample> samples, string top, string bottom, Func<CellSample, double> value) =>
        CellTargets.Rounds(samples, top, bottom, value) is { Count: > 0 } rounds ? CellTargets.Median(rounds) : null;
}
