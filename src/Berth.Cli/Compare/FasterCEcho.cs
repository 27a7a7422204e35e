namespace Berth.Cli.Compare;

/// <summary>
/// Makes "C" of each cell the faster of the two C echoes there (by the median of its rounds' msg/s): its samples, and
/// Berth's runs paired with it, are relabelled <see cref="EchoServers.C"/>; the slower keeps its own name, so its
/// figures stay in the report.
/// </summary>
internal static class FasterCEcho
{
    public static List<CellSample> Relabel(IReadOnlyList<CellSample> samples, IReadOnlyList<CompareCell> cells, out string choices)
    {
        var chosen = cells.ToDictionary(cell => cell, cell => Faster(samples.Where(s => s.Cell == cell).ToList()));
        choices = string.Join("; ", cells.Select(cell => $"{cell.Label}: {chosen[cell] ?? "none measured"}"));
        return [.. samples.Select(sample => chosen[sample.Cell] is { } faster
            ? sample with
            {
                Server = sample.Server == faster ? EchoServers.C : sample.Server,
                Partner = sample.Partner == faster ? EchoServers.C : sample.Partner,
            }
            : sample)];
    }

    private static string? Faster(List<CellSample> samples) =>
        new[] { EchoServers.CSleeping, EchoServers.CSpinning }
            .Select(server => (Server: server, Rates: samples.Where(s => s.Server == server).Select(CellTargets.Throughput).ToList()))
            .Where(c => c.Rates.Count > 0)
            .OrderByDescending(c => CellTargets.Median(c.Rates))
            .Select(c => c.Server)
            .FirstOrDefault();
}
