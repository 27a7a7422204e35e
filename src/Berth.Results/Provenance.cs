namespace Berth.Results;

/// <summary>
/// Where a result file's figures come from: when, from which commit, on what machine, how busy it was, and the
/// command that reproduces them. <paramref name="Source"/> is a sentence only for figures recovered from an earlier
/// report rather than written by the run itself.
/// </summary>
internal sealed record Provenance(
    DateTimeOffset Date,
    string Commit,
    bool? Dirty,
    string Machine,
    IReadOnlyList<double>? LoadAtStart,
    double? OtherCpuShare,
    bool Quiet,
    string Command,
    string? Source)
{
    /// <summary>
    /// A run is quiet when processes other than the measured ones used less than this share of all cores' capacity
    /// over the run. The one threshold every producer applies (docs/RESULTS.md).
    /// </summary>
    public const double QuietOtherCpuShare = 0.05;

    /// <summary>Whether <paramref name="otherCpuShare"/> makes a run quiet; unknown never does.</summary>
    public static bool IsQuiet(double? otherCpuShare) => otherCpuShare < QuietOtherCpuShare;
}

/// <summary>A result file: its provenance and its tables, in order.</summary>
internal sealed record ResultFile(Provenance Provenance, IReadOnlyList<ResultTable> Tables)
{
    public const string Schema = "berth-result/1";

    public ResultTable? Table(string id) => Tables.FirstOrDefault(t => t.Id == id);
}
