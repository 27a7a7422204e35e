using System.Globalization;

namespace Berth.Cli.Compare;

/// <summary>
/// Starts every server once, then, round after round, runs each cell as pairs: the first server (Berth) and one other,
/// for every other server in turn. Within a pair the load alternates between the two in
/// <see cref="AlternatingSegments.Count"/> segments each (Berth, other, other, Berth, ... in even rounds, the mirror in
/// odd ones), so a slow second on a shared machine falls on both sides of the pair's ratio alike; one back-to-back run
/// each took a shift between them whole. The server's CPU time is read at the edges of each segment's measured window.
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
            var total = repeat * cells.Count * (running.Count - 1) * 2;
            for (var round = 0; round < repeat; round++)
            {
                foreach (var cell in cells)
                {
                    foreach (var other in running.Skip(1))
                    {
                        var (subjectRuns, otherRuns) = (new SegmentRuns(), new SegmentRuns());
                        for (var segment = 0; segment < AlternatingSegments.Count; segment++)
                        {
                            foreach (var (server, runs) in AlternatingSegments.Order((subject, subjectRuns), (other, otherRuns), segment, mirrored: round % 2 == 1))
                            {
                                runs.Add(await MeasureAsync(server, cell, segment == 0 ? warmup : AlternatingSegments.Ramp, cancellationToken));
                            }
                        }

                        foreach (var sample in new[] { subjectRuns.Sample(subject.Name, other.Name, cell, round), otherRuns.Sample(other.Name, null, cell, round) })
                        {
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

    /// <summary>One segment: its outcome and the server's CPU seconds over its measured window; null when it failed.</summary>
    private async Task<(LoadOutcome Outcome, double CpuSeconds)?> MeasureAsync(
        ServerProcess server, CompareCell cell, TimeSpan ramp, CancellationToken cancellationToken)
    {
        double cpuAtStart = 0, cpuAtEnd = 0;
        try
        {
            var outcome = await load.RunAsync(
                cell, server.Port, ramp, duration / AlternatingSegments.Count, () => cpuAtStart = server.CpuSeconds, () => cpuAtEnd = server.CpuSeconds, cancellationToken);
            return (outcome, cpuAtEnd - cpuAtStart);
        }
        catch (IOException e)
        {
            // A server that stopped answering is a result, not the end of the comparison: the run counts as failed.
            Console.WriteLine($"  {server.Name} {cell.Label}: {e.Message}");
            return null;
        }
    }

    /// <summary>
    /// One server's segments in one pair, as one sample: messages and seconds summed, so its rate and CPU per message are
    /// over all its measured windows; each latency percentile is the highest of its segments'. Failed once any failed.
    /// </summary>
    private sealed class SegmentRuns
    {
        private readonly List<(LoadOutcome Outcome, double CpuSeconds)> _segments = [];
        private bool _failed;

        public void Add((LoadOutcome Outcome, double CpuSeconds)? segment)
        {
            if (segment is { } measured)
            {
                _segments.Add(measured);
            }
            else
            {
                _failed = true;
            }
        }

        public CellSample Sample(string server, string? partner, CompareCell cell, int round)
        {
            var outcomes = _segments.Select(s => s.Outcome).ToList();
            var messages = outcomes.Sum(o => o.Messages);
            var seconds = outcomes.Sum(o => o.Seconds);
            if (_failed || messages == 0 || seconds <= 0)
            {
                return new CellSample(server, partner, cell, round, new LoadOutcome(0, seconds, 0, 0, double.NaN, double.NaN, double.NaN, Math.Max(1, outcomes.Sum(o => o.Errors))), double.NaN);
            }

            var outcome = new LoadOutcome(
                messages,
                seconds,
                messages / seconds,
                outcomes.Sum(o => o.MegabytesPerSecond * o.Seconds) / seconds,
                outcomes.Max(o => o.P50Microseconds),
                outcomes.Max(o => o.P99Microseconds),
                outcomes.Max(o => o.P999Microseconds),
                outcomes.Sum(o => o.Errors));
            return new CellSample(server, partner, cell, round, outcome, _segments.Sum(s => s.CpuSeconds) / messages * 1e6);
        }
    }

    private static string Describe(int done, int total, CellSample sample) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"  [{done}/{total}] {sample.Server,-15} {sample.Cell.Label,-12} {sample.Outcome.MessagesPerSecond,12:N0} msg/s  p99 {sample.Outcome.P99Microseconds,9:N0} µs  CPU {sample.CpuSecondsPerMillion,5:0.00} s per M msg  errors {sample.Outcome.Errors}");
}
