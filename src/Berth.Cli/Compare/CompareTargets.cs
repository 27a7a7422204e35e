namespace Berth.Cli.Compare;

/// <summary>The targets of the TCP engine, each cell marked "met" or "not met" against them.</summary>
internal static class CompareTargets
{
    public const double ThroughputVsC = 0.8;
    public const double ThroughputVsKestrel = 2.0;
    public const double CpuVsC = 1.5;
    public const double IdleBytesPerConnection = 4096;

    /// <summary>The idle target holds at this many connections; smaller counts are reported without one.</summary>
    public const int IdleTargetConnections = 10_000;

    public const string Met = "met";
    public const string NotMet = "not met";
    public const string NotMeasured = "n/a";
    public const string NoTarget = "-";

    public static string AtLeast(double? value, double target) =>
        value is not { } v || double.IsNaN(v) ? NotMeasured : v >= target ? Met : NotMet;

    public static string AtMost(double? value, double target) =>
        value is not { } v || double.IsNaN(v) ? NotMeasured : v <= target ? Met : NotMet;
}
