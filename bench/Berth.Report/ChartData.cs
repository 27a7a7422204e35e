namespace Berth.Report;

/// <summary>One bar: a series name, its value (nanoseconds or the table's own unit), and whether it is the baseline.</summary>
internal sealed record ChartBar(string Series, double Value, bool IsBaseline);

/// <summary>A block of bars sharing one parameter value, such as one message size.</summary>
internal sealed record ChartGroup(string Label, IReadOnlyList<ChartBar> Bars);

/// <summary>Everything one chart shows: the groups, how to print a bar's value and an axis tick, and the axis label.</summary>
internal sealed record ChartData(string Title, IReadOnlyList<ChartGroup> Groups, Func<double, string> FormatValue, Func<double, string> FormatTick, string AxisLabel);
