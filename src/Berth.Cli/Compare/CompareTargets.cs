using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>
/// The targets of the TCP engine. A ratio target is judged on the median of the rounds' ratios (each round pairs Berth
/// with each other server, the load alternating between the two, so a round's ratio compares two servers under the same conditions): met when
/// the median and every round reach it, within noise when the median reaches it but a round does not, and only
/// with at least <see cref="MinimumRounds"/> of them; every round's ratio is reported beside the mark. The idle target
/// has no pairs, so it is judged on the whole range of its runs (<see cref="TargetVerdict"/>).
/// </summary>
internal static class CompareTargets
{
    public const double ThroughputVsC = 0.85;
    public const double ThroughputVsKestrel = 2.0;

    /// <summary>The Kestrel target applies only where the C echo itself is at least this much faster than Kestrel.</summary>
    public const double CVsKestrelForTarget = 2.5;

    public const double ThroughputVsPeer = 1.5;

    /// <summary>Where 1.5x a peer would be above the C echo, this fraction of the C echo counts as matching it.</summary>
    public const double MatchingC = 0.95;

    public const double CpuVsC = 1.25;
    public const double IdleBytesPerConnection = 4096;
    public const int MinimumRounds = TargetVerdict.MinimumRounds;

    /// <summary>The idle target holds at this many connections; smaller counts are reported without one.</summary>
    public const int IdleTargetConnections = 10_000;

    public const string NoTarget = "-";
    public const string NotRun = "not run";

    /// <summary>The median of the rounds' ratios should reach <paramref name="target"/>, and every round too (<see cref="TargetVerdict.MedianOfRounds"/>).</summary>
    public static string MedianAtLeast(IReadOnlyList<double> rounds, double target) =>
        TargetVerdict.MedianOfRounds(rounds, r => r >= target);

    /// <summary>The median of the rounds' ratios should stay at or under <paramref name="target"/>, judged as above.</summary>
    public static string MedianAtMost(IReadOnlyList<double> rounds, double target) =>
        TargetVerdict.MedianOfRounds(rounds, r => r <= target);

    public static ValueBounds Bounds(Spread spread) => new(spread.Min, spread.Max);
}
