using System.Globalization;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>
/// The comparison as small charts: per workload, one bar per server (median, min-max whisker over the rounds), for
/// throughput and for CPU per message; per idle connection count, memory per connection. A server keeps its color
/// throughout.
/// </summary>
internal static class CompareCharts
{
    public static IReadOnlyList<BarChart> Throughput(CompareReport report) =>
        [.. report.Cells.Select(cell => PerServer(report, cell.Workload, "msg/s", server => Result(cell, server)?.MessagesPerSecond))];

    public static IReadOnlyList<BarChart> Cpu(CompareReport report) =>
        [.. report.Cells.Select(cell => PerServer(report, cell.Workload, "CPU s per million msg", server => Result(cell, server)?.CpuSecondsPerMillionMessages))];

    public static IReadOnlyList<BarChart> Idle(CompareReport report) =>
        [.. report.Idle.Select(idle => PerServer(
            report,
            string.Create(CultureInfo.InvariantCulture, $"{idle.Connections:N0} idle connections"),
            "KiB per connection",
            server => idle.Servers.FirstOrDefault(r => r.Server == server)?.BytesPerConnection is { } bytes
                ? new Spread(bytes.Median / 1024, bytes.Min / 1024, bytes.Max / 1024)
                : null))];

    private static BarChart PerServer(CompareReport report, string title, string unit, Func<string, Spread?> value) =>
        new(title, unit, report.Servers, [new ChartSeries(unit, [.. report.Servers.Select(server => value(server) ?? Spread.Of([]))])], ColorByLabel: true);

    private static ServerCellResult? Result(CellComparison cell, string server) => cell.Servers.FirstOrDefault(r => r.Server == server);
}
