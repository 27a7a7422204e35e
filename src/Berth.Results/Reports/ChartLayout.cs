namespace Berth.Results.Reports;

/// <summary>Widths of a chart's three columns, in pixels: the labels, the plot, and the value printed past each bar.</summary>
internal sealed record ChartLayout(int LabelWidth, int PlotWidth, int ValueWidth)
{
    /// <summary>One chart across the page.</summary>
    public static readonly ChartLayout Wide = new(230, 560, 150);

    /// <summary>Small multiples, several to a row.</summary>
    public static readonly ChartLayout Narrow = new(110, 300, 70);

    public int Width => LabelWidth + PlotWidth + ValueWidth;
}
