namespace Berth.Cli.Compare;

/// <summary>The median of repeated runs with the smallest and largest value, so the noise is visible beside the figure.</summary>
internal sealed record Spread(double Median, double Min, double Max)
{
    public static Spread Of(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            return new Spread(double.NaN, double.NaN, double.NaN);
        }

        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[^1]);
    }
}
