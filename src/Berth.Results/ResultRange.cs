namespace Berth.Results;

/// <summary>A value measured in several runs: the lowest, the median and the highest, printed in <paramref name="Unit"/>.</summary>
internal sealed record ResultRange(double Min, double Median, double Max, CellFormat Unit)
{
    /// <summary>The range of <paramref name="runs"/>; at least one run is needed.</summary>
    public static ResultRange Of(IEnumerable<double> runs, CellFormat unit)
    {
        var sorted = runs.Order().ToArray();
        if (sorted.Length == 0)
        {
            throw new ArgumentException("a range needs at least one run", nameof(runs));
        }

        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new ResultRange(sorted[0], median, sorted[^1], unit);
    }
}
