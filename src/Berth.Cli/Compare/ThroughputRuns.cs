using System.Globalization;

namespace Berth.Cli.Compare;

/// <summary>
/// Starts every server once, then, round after round, runs each cell as back-to-back pairs: the first server (Berth),
/// then one other, for every other server in turn (B C B K B D ...). Each of Berth's ratios in a round is taken within
/// its pair, so a slow minute on a shared machine hurts both sides of it alike. The server's CPU time is read at the
/// edges of the load generator's measured window.
/// </summary>
internal sealed class ThroughputRuns(LoadGenerator load, TimeSpan warmup, TimeSpan duration)
{
    public async Task<List<CellSample>> RunAsync(
        IReadOnlyList<EchoServerCommand> servers, IReadOnlyList<CompareCell> cells, int repeat, CancellationToken cancellationToken)
    {
        var samples = new List<CellSample>();
        var running = new List<ServerProcess>();
        try
        {
            foreach (var server in servers)
            {
                running.Add(await ServerProcess.StartAsync(server, cancellationToken));
            }

            var subject = running[0];
            var pairs = running.Skip(1).Select(other => (Subject: subject, Other: other)).ToList();
            var total = repeat * cells.Count * pairs.Count * 2;
            for (var round = 0; round < repeat; round++)
            {
                foreach (var cell in cells)
                {
                    foreach (var (first, second) in pairs)
                    {
                        foreach (var (server, partner) in new[] { (first, second.Name), (second, (string?)null) })
                        {
                            var sample = await MeasureAsync(server, partner, cell, round, cancellationToken);
                            samples.Add(sample);
                            Console.WriteLine(Describe(samples.Count, total, sample));
                        }
                    }
                }
            }
        }
        finally
        {
            foreach (var server in running)
            {
                await server.DisposeAsync();
            }
        }

        return samples;
    }

    private async Task<CellSample> MeasureAsync(ServerProcess server, string? partner, CompareCell cell, int round, CancellationToken cancellationToken)
    {
        double cpuAtStart = 0, cpuAtEnd = 0;
        try
        {
            var outcome = await load.RunAsync(
                cell, server.Port, warmup, duration, () => cpuAtStart = server.CpuSeconds, () => cpuAtEnd = server.CpuSeconds, cancellationToken);
            var cpuPerMillion = outcome.Messages > 0 ? (cpuAtEnd - cpuAtStart) / outcome.Messages * 1e6 : double.NaN;
            return new CellSample(server.Name, partner, cell, round, outcome, cpuPerMillion);
        }
        catch (IOException e)
        {
            // A server that stopped answering is a result, not the end of the comparison: the run counts as failed.
            Console.WriteLine($"  {server.Name} {cell.Label}: {e.Message}");
            return new CellSample(server.Name, partner, cell, round, new LoadOutcome(0, duration.TotalSeconds, 0, 0, double.NaN, double.NaN, double.NaN, 1), double.NaN);
        }
    }

    private static string Describe(int done, int total, CellSample sample) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"  [{done}/{total}] {sample.Server,-15} {sample.Cell.Label,-12} {sample.Outcome.MessagesPerSecond,12:N0} msg/s  p99 {sample.Outcome.P99Microseconds,9:N0} µs  CPU {sample.CpuSecondsPerMillion,5:0.00} s per M msg  errors {sample.Outcome.Errors}");
}
