using System.Globalization;

namespace Berth.Results;

/// <summary>The sentence printed above every generated table: when, where, how busy, how to reproduce, and the data file.</summary>
internal static class ProvenanceLine
{
    public static string Render(Provenance provenance, string dataLink, string dataPath)
    {
        var commit = provenance.Commit.Length > 12 ? provenance.Commit[..12] : provenance.Commit;
        var changes = provenance.Dirty switch
        {
            true => " with uncommitted changes",
            null => " (work tree state unknown)",
            false => "",
        };
        var load = RunConditions.LoadText(provenance.LoadAtStart);
        var busy = RunConditions.OtherCpuText(provenance);
        var date = provenance.Date.ToUniversalTime().ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture);
        var line = $"Measured {date} at commit `{commit}`{changes} on {provenance.Machine}; {load}; {busy}. " +
            $"Command: `{provenance.Command}`. Data: [{dataPath}]({dataLink}).";
        return provenance.Source is { } source ? $"{line} Source: {source}" : line;
    }
}
