namespace Berth.Cli.Reports;

/// <summary>
/// Everything a report shows: the command and machine it came from, its tables and charts, and the warnings a reader
/// must see before trusting a number (a busy machine, a large run-to-run spread).
/// </summary>
internal sealed record Report(string Title, string Note, string Command, MachineSnapshot Machine, IReadOnlyList<ReportTable> Tables, IReadOnlyList<BarChart> Charts)
{
    /// <summary>A cell whose runs differ by more than this, relative to their median, is called out.</summary>
    public const double LargeSpread = 0.25;

    public IReadOnlyList<string> Warnings()
    {
        var warnings = new List<string>();
        if (Machine.WasBusy)
        {
            warnings.Add($"The machine was busy when the run started ({Machine.LoadText}, more than {MachineSnapshot.BusyLoadPerCore} per core): absolute figures are lower and noisier than on an idle machine.");
        }

        var spreads = Tables.SelectMany(t => t.Rows).SelectMany(r => r).OfType<Spread>().ToList();
        var wide = spreads.Count(s => s.Relative > LargeSpread);
        if (wide > 0)
        {
            warnings.Add($"{wide} of {spreads.Count} repeated values vary by more than {LargeSpread * 100:0}% of their median between runs: compare medians only where the min-max ranges do not overlap.");
        }

        if (spreads.Count > 0 && spreads.All(s => s.IsSingle))
        {
            warnings.Add("Each value is a single run: run with --repeat 3 or more to see the spread.");
        }

        return warnings;
    }
}
