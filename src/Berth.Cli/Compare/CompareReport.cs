using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>Everything one comparison run found, with the run's provenance, as it is written to the result file and rendered as tables.</summary>
internal sealed record CompareReport(
    Provenance Provenance,
    string Conditions,
    int Repeat,
    IReadOnlyList<string> Servers,
    IReadOnlyList<CellComparison> Cells,
    IReadOnlyList<IdleComparison> Idle,
    IReadOnlyList<ServerNotRun> NotRun);

/// <summary>A server the comparison could not include, and why (its source not given, its build failed).</summary>
internal sealed record ServerNotRun(string Server, string Reason);

/// <summary>
/// One workload across the servers, with Berth's ratios against C and Kestrel (medians of the rounds' ratios), the
/// marks of the three headline targets, and every target's check round by round.
/// </summary>
internal sealed record CellComparison(
    string Workload,
    int Size,
    int Connections,
    int Pipeline,
    IReadOnlyList<ServerCellResult> Servers,
    double? BerthVsC,
    double? BerthVsKestrel,
    double? CpuBerthVsC,
    string ThroughputVsCTarget,
    string ThroughputVsKestrelTarget,
    string CpuVsCTarget,
    IReadOnlyList<TargetCheck> Targets);

/// <summary>
/// One target on one workload: the ratio it is judged on (<see cref="Ratio"/>, such as Berth/C), that ratio in every
/// round where both servers ran, their median, and the mark.
/// </summary>
/// <param name="Target">The target as the issue states it: "≥ 1.5x DotNetty".</param>
/// <param name="Ratio">What was divided, with the rule that picked it: "Berth/DotNetty", or "Berth/C ≥ 0.95 (1.5x DotNetty is above C)".</param>
internal sealed record TargetCheck(string Target, string Ratio, IReadOnlyList<double> Rounds, double? Median, string Mark);

/// <summary>One server on one workload: medians and min-max over the repeated runs, errors summed.</summary>
internal sealed record ServerCellResult(
    string Server,
    int Runs,
    Spread MessagesPerSecond,
    Spread MegabytesPerSecond,
    Spread P50Microseconds,
    Spread P99Microseconds,
    Spread P999Microseconds,
    Spread CpuSecondsPerMillionMessages,
    long Errors);

/// <summary>Resident memory per idle connection at one connection count, per server, and Berth's target mark.</summary>
internal sealed record IdleComparison(int Connections, IReadOnlyList<ServerIdleResult> Servers, string BerthTarget);

internal sealed record ServerIdleResult(string Server, int Runs, Spread BytesPerConnection, long Errors);
