using Berth.Cli.Reports;
using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>
/// The targets of the TCP engine. Each cell is marked against them on the whole range of its runs
/// (<see cref="TargetVerdict"/>): "met" only when the ranges leave no doubt, "within noise" when they straddle the target.
/// </summary>
internal static class CompareTargets
{
    public const double ThroughputVsC = 0.8;
    public const double ThroughputVsKestrel = 2.0;
    public const double CpuVsC = 1.5;
    public const double IdleBytesPerConnection = 4096;

    /// <summary>The idle target holds at this many connections; smaller counts are reported without one.</summary>
    public const int IdleTargetConnections = 10_000;

    public const string NoTarget = "-";

    /// <summary>Berth's runs over the anchor's should reach <paramref name="target"/>; n/a when either server is missing.</summary>
    public static string AtLeast(Spread? berth, Spread? anchor, double target) =>
        berth is { } value && anchor is { } baseline ? TargetVerdict.RatioAtLeast(Bounds(value), Bounds(baseline), target) : TargetVerdict.NotMeasured;

    /// <summary>Berth's runs over the anchor's should stay within <paramref name="target"/>; n/a when either server is missing.</summary>
    public static string AtMost(Spread? berth, Spread? anchor, double target) =>
        berth is { } value && anchor is { } baseline ? TargetVerdict.RatioAtMost(Bounds(value), Bounds(baseline), target) : TargetVerdict.NotMeasured;

    public static ValueBounds Bounds(Spread spread) => new(spread.Min, spread.Max);
}
