namespace Berth.Results;

/// <summary>
/// Whether repeated runs meet a target, judged on their whole range rather than their median (docs/RESULTS.md,
/// "Verdicts"): met only when every run is on the right side of the target, not met when every run is on the wrong
/// side, within noise when the runs straddle it.
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
    /// <see cref="MinimumRounds"/>.
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

    /// <summary>
    /// A ratio that should reach <paramref name="target"/> (higher is better): met when the lowest value over the highest
    /// anchor reaches it, not met when even the highest value over the lowest anchor stays below it.
    /// </summary>
    public static string RatioAtLeast(ValueBounds value, ValueBounds anchor, double target)
    {
        if (!value.IsMeasured || !anchor.IsMeasured || anchor.Min <= 0)
        {
            return NotMeasured;
        }

        return value.Min / anchor.Max >= target ? Met : value.Max / anchor.Min < target ? NotMet : WithinNoise;
    }

    /// <summary>
    /// A ratio that should stay at or under <paramref name="target"/> (lower is better): met when the highest value over
    /// the lowest anchor stays within it, not met when even the lowest value over the highest anchor exceeds it.
    /// </summary>
    public static string RatioAtMost(ValueBounds value, ValueBounds anchor, double target)
    {
        if (!value.IsMeasured || !anchor.IsMeasured || anchor.Min <= 0)
        {
            return NotMeasured;
        }

        return value.Max / anchor.Min <= target ? Met : value.Min / anchor.Max > target ? NotMet : WithinNoise;
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
