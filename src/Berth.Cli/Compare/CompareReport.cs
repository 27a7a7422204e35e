using Berth.Cli.Reports;
using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>Everything one comparison run found, with the run's provenance, as it is written to the result file and rendered as tables.</summary>
internal sealed record CompareReport(
    Provenance Provenance,
    string Conditions,
    int Repeat,
    IReadOnlyList<string> Servers,
    IReadOnlyList<CellComparison> Cells,
    IReadOnlyList<IdleComparison> Idle);

/// <summary>One workload across the servers, with Berth's ratios against the others and the targets they are held to.</summary>
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
    string CpuVsCTarget);

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
