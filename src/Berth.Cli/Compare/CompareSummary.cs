using Berth.Cli.Reports;
using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>
/// Turns the repeated samples into the report: medians, min-max, ratios of medians, and target marks judged on the
/// runs' whole ranges.
/// </summary>
internal static class CompareSummary
{
    public static CompareReport Build(
        Provenance provenance,
        string conditions,
        int repeat,
        IReadOnlyList<string> servers,
        IReadOnlyList<CompareCell> cells,
        IReadOnlyList<CellSample> samples,
        IReadOnlyList<IdleSample> idleSamples)
    {
        var cellRows = cells.Select(cell => Cell(cell, servers, samples.Where(s => s.Cell == cell).ToList())).ToList();
        var idleRows = idleSamples
            .GroupBy(s => s.Connections)
            .Select(group => Idle(group.Key, servers, [.. group]))
            .ToList();
        return new CompareReport(provenance, conditions, repeat, servers, cellRows, idleRows);
    }

    private static CellComparison Cell(CompareCell cell, IReadOnlyList<string> servers, List<CellSample> samples)
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

        var berthVsC = Ratio(results, EchoServers.Berth, EchoServers.C, r => r.MessagesPerSecond);
        var berthVsKestrel = Ratio(results, EchoServers.Berth, EchoServers.Kestrel, r => r.MessagesPerSecond);
        var cpuVsC = Ratio(results, EchoServers.Berth, EchoServers.C, r => r.CpuSecondsPerMillionMessages);
        return new CellComparison(
            cell.Label,
            cell.Size,
            cell.Connections,
            cell.Pipeline,
            results,
            berthVsC,
            berthVsKestrel,
            cpuVsC,
            CompareTargets.AtLeast(Pick(results, EchoServers.Berth)?.MessagesPerSecond, Pick(results, EchoServers.C)?.MessagesPerSecond, CompareTargets.ThroughputVsC),
            CompareTargets.AtLeast(Pick(results, EchoServers.Berth)?.MessagesPerSecond, Pick(results, EchoServers.Kestrel)?.MessagesPerSecond, CompareTargets.ThroughputVsKestrel),
            CompareTargets.AtMost(Pick(results, EchoServers.Berth)?.CpuSecondsPerMillionMessages, Pick(results, EchoServers.C)?.CpuSecondsPerMillionMessages, CompareTargets.CpuVsC));
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

    private static ServerCellResult? Pick(List<ServerCellResult> results, string server) => results.FirstOrDefault(r => r.Server == server);

    private static double? Ratio(List<ServerCellResult> results, string numerator, string denominator, Func<ServerCellResult, Spread> value)
    {
        var top = results.FirstOrDefault(r => r.Server == numerator);
        var bottom = results.FirstOrDefault(r => r.Server == denominator);
        if (top is null || bottom is null || value(bottom).Median is 0 or double.NaN)
        {
            return null;
        }

        return value(top).Median / value(bottom).Median;
    }
}
