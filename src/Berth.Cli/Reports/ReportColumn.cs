namespace Berth.Cli.Reports;

/// <summary>A column: its title as printed ("p99 µs") and its key as a JSON field name ("p99Microseconds").</summary>
internal sealed record ReportColumn(string Key, string Title);
