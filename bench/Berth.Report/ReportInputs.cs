namespace Berth.Report;

/// <summary>Everything the report is built from, gathered before any text is written.</summary>
internal sealed record ReportInputs(
    HostInfo? Host,
    IReadOnlyList<BenchmarkResult> Results,
    BaselineCatalog Baselines,
    IReadOnlyList<ExtraTable> JavaTables,
    string BenchmarkCommand,
    IReadOnlyList<string> Notes);
