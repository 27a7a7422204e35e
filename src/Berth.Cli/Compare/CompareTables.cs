using System.Globalization;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>Lays the report out as the tables a reader looks at: throughput, CPU, latency, idle memory.</summary>
internal static class CompareTables
{
    public static IReadOnlyList<CompareTable> Build(CompareReport report)
    {
        var spreads = report.Repeat > 1;
        var tables = new List<CompareTable>
        {
            new(
                spreads ? "Throughput, msg/s: median [min-max]" : "Throughput, msg/s",
                ["workload", .. report.Servers, "Berth/C", "≥ 0.85x C", "Berth/Kestrel", "≥ 2x Kestrel where C ≥ 2.5x"],
                [.. report.Cells.Select(cell => (string[])[
                    cell.Workload,
                    .. report.Servers.Select(server => Value(cell, server, r => r.MessagesPerSecond, Count, spreads)),
                    Ratio(cell.BerthVsC), cell.ThroughputVsCTarget, Ratio(cell.BerthVsKestrel), cell.ThroughputVsKestrelTarget])]),
            new(
                spreads ? "Server CPU seconds per million messages: median [min-max]" : "Server CPU seconds per million messages",
                ["workload", .. report.Servers, "Berth/C", "≤ 1.25x C"],
                [.. report.Cells.Select(cell => (string[])[
                    cell.Workload,
                    .. report.Servers.Select(server => Value(cell, server, r => r.CpuSecondsPerMillionMessages, Seconds, spreads)),
                    Ratio(cell.CpuBerthVsC), cell.CpuVsCTarget])]),
            new(
                "Targets, round by round (Berth's ratio in each round, within its pair; judged on the median of ≥ 3 rounds)",
                ["workload", "target", "ratio", "rounds", "median", "mark"],
                [.. report.Cells.SelectMany(cell => cell.Targets.Select(check => (string[])[
                    cell.Workload, check.Target, check.Ratio,
                    check.Rounds.Count == 0 ? "-" : string.Join(", ", check.Rounds.Select(r => Fixed(r, "0.00"))),
                    Ratio(check.Median), check.Mark]))]),
            new(
                "Bandwidth and round trip per server (medians)",
                ["workload", "server", "pipeline", "MB/s", "p50 µs", "p99 µs", "p99.9 µs", "errors"],
                [.. report.Cells.SelectMany(cell => cell.Servers.Select(r => (string[])[
                    cell.Workload, r.Server, Whole(cell.Pipeline), Fixed(r.MegabytesPerSecond.Median, r.MegabytesPerSecond.Median >= 100 ? "N0" : "0.0"),
                    Micros(r.P50Microseconds.Median), Micros(r.P99Microseconds.Median), Micros(r.P999Microseconds.Median), Whole(r.Errors)]))]),
        };
        if (report.Idle.Count > 0)
        {
            tables.Add(new(
                spreads ? "Memory per idle connection, KiB (RSS growth ÷ connections): median [min-max]" : "Memory per idle connection, KiB (RSS growth ÷ connections)",
                ["connections", .. report.Servers, "Berth ≤ 4 KiB"],
                [.. report.Idle.Select(idle => (string[])[
                    Whole(idle.Connections),
                    .. report.Servers.Select(server => IdleValue(idle, server, spreads)),
                    idle.BerthTarget])]));
        }

        return tables;
    }

    private static string Value(CellComparison cell, string server, Func<ServerCellResult, Spread> pick, Func<double, string> format, bool spreads)
    {
        var result = cell.Servers.FirstOrDefault(r => r.Server == server);
        if (result is null)
        {
            return "-";
        }

        var errors = result.Errors > 0 ? $" ({Whole(result.Errors)} errors)" : string.Empty;
        return WithSpread(pick(result), format, spreads) + errors;
    }

    private static string IdleValue(IdleComparison idle, string server, bool spreads)
    {
        var result = idle.Servers.FirstOrDefault(r => r.Server == server);
        if (result is null)
        {
            return "-";
        }

        var errors = result.Errors > 0 ? $" ({Whole(result.Errors)} errors)" : string.Empty;
        return WithSpread(result.BytesPerConnection, bytes => Fixed(bytes / 1024, "0.0"), spreads) + errors;
    }

    private static string WithSpread(Spread spread, Func<double, string> format, bool spreads) =>
        spreads ? $"{format(spread.Median)} [{format(spread.Min)}-{format(spread.Max)}]" : format(spread.Median);

    /// <summary>Three significant figures with a K or M suffix: 930K, 1.24M, 22.7K.</summary>
    private static string Count(double value) => Math.Abs(value) switch
    {
        double.NaN => "-",
        >= 1e6 => Fixed(value / 1e6, "0.00") + "M",
        >= 1e5 => Fixed(value / 1e3, "0") + "K",
        >= 1e4 => Fixed(value / 1e3, "0.0") + "K",
        >= 1e3 => Fixed(value / 1e3, "0.00") + "K",
        _ => Fixed(value, "0.#"),
    };

    private static string Seconds(double value) => Fixed(value, "0.00");

    private static string Micros(double value) => Fixed(value, value >= 100 ? "N0" : "0.0");

    private static string Ratio(double? value) => value is { } v && !double.IsNaN(v) ? Fixed(v, "0.00") + "x" : "-";

    private static string Whole(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string Fixed(double value, string format) =>
        double.IsNaN(value) ? "-" : value.ToString(format, CultureInfo.InvariantCulture);
}
