namespace Berth.Cli.Reports;

/// <summary>A value measured several times: the median, shown with the lowest and highest run.</summary>
internal readonly record struct Spread(double Median, double Min, double Max)
{
    public static Spread Of(IReadOnlyCollection<double> runs)
    {
        var sorted = runs.Order().ToArray();
        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[^1]);
    }

    public static Spread Single(double value) => new(value, value, value);

    /// <summary>Max minus min relative to the median: 0 for one run.</summary>
    public double Relative => Median == 0 ? 0 : (Max - Min) / Math.Abs(Median);

    public bool IsSingle => Min == Max;
}
