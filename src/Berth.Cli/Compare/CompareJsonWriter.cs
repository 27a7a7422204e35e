using System.Globalization;
using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>
/// Writes the comparison as a berth-result/1 file (docs/RESULTS.md) with the tables <c>throughput</c>, <c>cpu</c>,
/// <c>targets</c> (every round's ratio), <c>latency</c> and <c>idle</c>. With repeated runs every measured value is a range (median, min, max).
/// </summary>
internal static class CompareJsonWriter
{
    public static void Write(string path, CompareReport report) => ResultFileWriter.Write(path, ToResultFile(report));

    public static ResultFile ToResultFile(CompareReport report)
    {
        var notes = new[] { report.Conditions };
        var spreads = report.Repeat > 1;
        ResultColumn Measured(string name, CellFormat unit) => new(name, spreads ? CellFormat.Range : unit);
        object? Value(Spread? spread, CellFormat unit) => spread switch
        {
            null => null,
            { } s when double.IsNaN(s.Median) => null,
            { } s when spreads => new ResultRange(s.Min, s.Median, s.Max, unit),
            { } s => s.Median,
        };
        object? Ratio(double? ratio) => ratio is { } r && double.IsFinite(r) ? r : null;
        Spread? Of(CellComparison cell, string server, Func<ServerCellResult, Spread> pick) =>
            cell.Servers.FirstOrDefault(r => r.Server == server) is { } result ? pick(result) : null;

        var throughput = new ResultTable(
            "throughput",
            "Throughput, messages per second",
            [
                new("workload", CellFormat.Text),
                .. report.Servers.Select(server => Measured(server, CellFormat.Count)),
                new("Berth/C", CellFormat.Ratio), new($"≥ {CompareTargets.ThroughputVsC}x C", CellFormat.Verdict),
                new("Berth/Kestrel", CellFormat.Ratio), new($"≥ {CompareTargets.ThroughputVsKestrel}x Kestrel where C ≥ {CompareTargets.CVsKestrelForTarget}x", CellFormat.Verdict),
            ],
            [.. report.Cells.Select(cell => (IReadOnlyList<object?>)[
                cell.Workload,
                .. report.Servers.Select(server => Value(Of(cell, server, r => r.MessagesPerSecond), CellFormat.Count)),
                Ratio(cell.BerthVsC), cell.ThroughputVsCTarget, Ratio(cell.BerthVsKestrel), cell.ThroughputVsKestrelTarget])],
            notes);
        // CPU seconds per million messages are CPU microseconds per message.
        var cpu = new ResultTable(
            "cpu",
            "Server CPU time per message",
            [
                new("workload", CellFormat.Text),
                .. report.Servers.Select(server => Measured(server, CellFormat.Us)),
                new("Berth/C", CellFormat.Ratio), new($"≤ {CompareTargets.CpuVsC}x C", CellFormat.Verdict),
            ],
            [.. report.Cells.Select(cell => (IReadOnlyList<object?>)[
                cell.Workload,
                .. report.Servers.Select(server => Value(Of(cell, server, r => r.CpuSecondsPerMillionMessages), CellFormat.Us)),
                Ratio(cell.CpuBerthVsC), cell.CpuVsCTarget])],
            notes);
        var targets = new ResultTable(
            "targets",
            "Targets, round by round: Berth's ratio in each round, within its pair, judged on the median of at least 3 rounds",
            [
                new("workload", CellFormat.Text), new("target", CellFormat.Text), new("ratio", CellFormat.Text),
                new("rounds", CellFormat.Text), new("median", CellFormat.Ratio), new("mark", CellFormat.Verdict),
            ],
            [.. report.Cells.SelectMany(cell => cell.Targets.Select(check => (IReadOnlyList<object?>)[
                cell.Workload, check.Target, check.Ratio,
                string.Join(", ", check.Rounds.Select(r => r.ToString("0.00", CultureInfo.InvariantCulture))),
                Ratio(check.Median), check.Mark]))],
            notes);
        var latency = new ResultTable(
            "latency",
            "Bandwidth and round trip per server (medians)",
            [
                new("workload", CellFormat.Text), new("server", CellFormat.Text), new("pipeline", CellFormat.Int), new("MB/s", CellFormat.Int),
                new("p50", CellFormat.Us), new("p99", CellFormat.Us), new("p99.9", CellFormat.Us), new("errors", CellFormat.Int),
            ],
            [.. report.Cells.SelectMany(cell => cell.Servers.Select(r => (IReadOnlyList<object?>)[
                cell.Workload, r.Server, (double)cell.Pipeline, r.MegabytesPerSecond.Median,
                r.P50Microseconds.Median, r.P99Microseconds.Median, r.P999Microseconds.Median, (double)r.Errors]))],
            notes);
        var idle = new ResultTable(
            "idle",
            "Memory per idle connection (RSS growth ÷ connections)",
            [
                new("connections", CellFormat.Int),
                .. report.Servers.Select(server => Measured(server, CellFormat.Bytes)),
                new("Berth ≤ 4 KiB", CellFormat.Verdict),
            ],
            [.. report.Idle.Select(row => (IReadOnlyList<object?>)[
                (double)row.Connections,
                .. report.Servers.Select(server => Value(row.Servers.FirstOrDefault(r => r.Server == server)?.BytesPerConnection, CellFormat.Bytes)),
                row.BerthTarget])],
            notes);
        return new ResultFile(report.Provenance, [throughput, cpu, targets, latency, idle]);
    }
}
