namespace Berth.Results.Reports;

/// <summary>One named set of bars in a chart, one value per label (a p99 beside a p50, say).</summary>
internal sealed record ChartSeries(string Name, IReadOnlyList<Spread> Values);

/// <summary>
/// A horizontal bar chart: one group of bars per label, one bar per series, each with its min-max whisker when the
/// value was measured more than once. Latencies use a logarithmic axis so a p99 does not flatten the p50 beside it.
/// With <paramref name="ColorByLabel"/> a one-series chart gives each label its own color, so a server keeps its color
/// from one chart to the next.
/// </summary>
internal sealed record BarChart(
    string Title, string Unit, IReadOnlyList<string> Labels, IReadOnlyList<ChartSeries> Series, bool Logarithmic = false, bool ColorByLabel = false);
