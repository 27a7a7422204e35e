using System.Globalization;
using Berth.Results;

namespace Berth.Results.Reports;

/// <summary>
/// Everything a report shows: the run's provenance (command, machine, how busy the machine was), its tables and
/// charts, and the warnings a reader must see before trusting a number (a busy machine, a large run-to-run spread).
/// </summary>
internal sealed record Report(string Title, string Note, Provenance Provenance, IReadOnlyList<ReportTable> Tables, IReadOnlyList<BarChart> Charts)
{
    /// <summary>A cell whose runs differ by more than this, relative to their median, is called out.</summary>
    public const double LargeSpread = 0.25;

    public IReadOnlyList<string> Warnings()
    {
        var warnings = new List<string>();
        if (!Provenance.Quiet)
        {
            warnings.Add(BusyWarning(Provenance.OtherCpuShare));
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

    /// <summary>Why a run is not quiet, in one sentence.</summary>
    public static string BusyWarning(double? otherCpuShare)
    {
        var threshold = Berth.Results.CellText.Number(Results.Provenance.QuietOtherCpuShare, CellFormat.Percent);
        return otherCpuShare is { } share
            ? string.Create(CultureInfo.InvariantCulture, $"The machine was busy: other processes used {Berth.Results.CellText.Number(share, CellFormat.Percent)} of the CPU during the run (quiet means under {threshold}), so absolute figures are lower and noisier than on a quiet machine.")
            : "Other processes' CPU use during the run could not be measured, so the run is not known to be quiet.";
    }
}
