namespace Berth.Results;

/// <summary>
/// Measures a run's provenance: started when the run starts, finished when it ends. What other processes did to the
/// CPU in between is measured, not guessed from the load average (docs/RESULTS.md, "How otherCpuShare is measured").
/// The measured processes are this one and everything it starts.
/// </summary>
internal sealed class RunConditions
{
    private readonly (long All, long Busy)? machineAtStart;
    private readonly long? measuredAtStart;

    private RunConditions(string command, string machine)
    {
        Command = command;
        Machine = machine;
        Date = DateTimeOffset.UtcNow;
        (Commit, Dirty) = GitCheckout.Describe();
        LoadAtStart = MachineDescription.LoadAverages();
        machineAtStart = CpuTicks.Machine();
        measuredAtStart = CpuTicks.ProcessTree(Environment.ProcessId);
    }

    public string Command { get; }

    public string Machine { get; }

    public DateTimeOffset Date { get; }

    public string Commit { get; }

    public bool? Dirty { get; }

    public IReadOnlyList<double>? LoadAtStart { get; }

    /// <param name="command">The command that reproduces the run, as it goes into the result file.</param>
    /// <param name="extra">Anything else the numbers depend on, appended to the machine description.</param>
    public static RunConditions Start(string command, string? extra = null) => new(command, MachineDescription.Current(extra));

    /// <summary>The provenance of the run, with the other processes' CPU share measured from the start until now.</summary>
    public Provenance Finish()
    {
        var share = OtherCpuShare(machineAtStart, CpuTicks.Machine(), measuredAtStart, CpuTicks.ProcessTree(Environment.ProcessId));
        return new Provenance(Date, Commit, Dirty, Machine, LoadAtStart, share, Provenance.IsQuiet(share), Command, null);
    }

    /// <summary>
    /// The provenance of a run whose CPU use was not measured over time (a dry run of a pipeline): the other processes'
    /// share is unknown, so the run is not quiet.
    /// </summary>
    public Provenance Unmeasured() => new(Date, Commit, Dirty, Machine, LoadAtStart, null, false, Command, null);

    /// <summary>The load averages at start in words, as the harnesses print them.</summary>
    public static string LoadText(IReadOnlyList<double>? loadAtStart) => loadAtStart is { Count: > 0 } values
        ? "load average " + string.Join(" ", values.Select(v => v.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture))) + " at start"
        : "load average unknown";

    /// <summary>The other processes' CPU share over the run and the quiet verdict, in words.</summary>
    public static string OtherCpuText(Provenance provenance) => provenance.OtherCpuShare is { } share
        ? $"other processes used {CellText.Number(share, CellFormat.Percent)} of the CPU: {(provenance.Quiet ? "quiet" : "busy")} (quiet means under {CellText.Number(Provenance.QuietOtherCpuShare, CellFormat.Percent)})"
        : "other processes' CPU use not measured: not known to be quiet";

    /// <summary>
    /// (busy ticks − measured ticks) ÷ all ticks over the interval, floored at 0; null when any reading is missing or
    /// no time passed.
    /// </summary>
    public static double? OtherCpuShare((long All, long Busy)? machineStart, (long All, long Busy)? machineEnd, long? measuredStart, long? measuredEnd)
    {
        if (machineStart is not { } start || machineEnd is not { } end || measuredStart is not { } before || measuredEnd is not { } after)
        {
            return null;
        }

        var all = end.All - start.All;
        if (all <= 0)
        {
            return null;
        }

        var other = (end.Busy - start.Busy) - (after - before);
        return Math.Max(0, other) / (double)all;
    }
}
