using System.Text.Json.Serialization;

namespace Berth.Results.Reports;

/// <summary>A value measured several times: the median, shown with the lowest and highest run, so the noise is visible beside the figure.</summary>
internal readonly record struct Spread(double Median, double Min, double Max)
{
    /// <summary>The spread of <paramref name="runs"/>; NaN throughout when there are none.</summary>
    public static Spread Of(IEnumerable<double> runs)
    {
        var sorted = runs.Order().ToArray();
        if (sorted.Length == 0)
        {
            return new Spread(double.NaN, double.NaN, double.NaN);
        }

        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[^1]);
    }

    public static Spread Single(double value) => new(value, value, value);

    /// <summary>Max minus min relative to the median: 0 for one run.</summary>
    [JsonIgnore]
    public double Relative => Median == 0 ? 0 : (Max - Min) / Math.Abs(Median);

    [JsonIgnore]
    public bool IsSingle => Min == Max;
}
