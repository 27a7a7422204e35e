namespace Berth.Results;

/// <summary>
/// Whether repeated runs meet a target (docs/RESULTS.md, "Verdicts"): a ratio on paired rounds, met only when their
/// median and every round reach it; a value on its whole range, met only when every run is within its limit.
/// </summary>
internal static class TargetVerdict
{
    public const string Met = "met";
    public const string WithinNoise = "within noise";
    public const string NotMet = "not met";
    public const string NotMeasured = "n/a";

    /// <summary>Paired rounds fewer than this judge no target (<see cref="MedianOfRounds"/>).</summary>
    public const int MinimumRounds = 3;

    public const string TooFewRounds = "< 3 rounds";

    /// <summary>
    /// A target judged on paired rounds, each round's ratio comparing two things measured back to back under the same
    /// conditions: met when the median of the rounds' ratios and every round reach it, within noise when the median
    /// reaches it but a round does not, not met when the median does not; <see cref="TooFewRounds"/> with fewer than
    /// <see cref="MinimumRounds"/>. The rule of docs/RESULTS.md ("Verdicts"), which scripts/paired_rounds.py implements
    /// the same way for the Python producers.
    /// </summary>
    public static string MedianOfRounds(IReadOnlyList<double> rounds, Func<double, bool> reaches)
    {
        if (rounds.Count == 0 || rounds.Any(double.IsNaN))
        {
            return NotMeasured;
        }

        if (rounds.Count < MinimumRounds)
        {
            return TooFewRounds;
        }

        return !reaches(ResultRange.Of(rounds, CellFormat.Ratio).Median) ? NotMet : rounds.All(reaches) ? Met : WithinNoise;
    }

    /// <summary>A value that should stay at or under <paramref name="limit"/>: met when the highest run does.</summary>
    public static string AtMost(ValueBounds value, double limit) =>
        !value.IsMeasured ? NotMeasured : value.Max <= limit ? Met : value.Min > limit ? NotMet : WithinNoise;
}

/// <summary>The lowest and highest of a value's repeated runs.</summary>
internal readonly record struct ValueBounds(double Min, double Max)
{
    public bool IsMeasured => double.IsFinite(Min) && double.IsFinite(Max);
}
