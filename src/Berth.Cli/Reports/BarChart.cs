namespace Berth.Cli.Reports;

/// <summary>A horizontal bar chart of one numeric column of a table, labelled by other columns.</summary>
internal sealed record BarChart(string Title, string Unit, string[] Labels, double[] Values);
