namespace Berth.Cli.Soak;

/// <summary>
/// Judges a soak. Memory: the median RSS of the last tenth of the load phase may be at most
/// <see cref="SoakSettings.MaxGrowth"/> times the median RSS of the first tenth after warm-up (each at least three
/// samples); with churn rounds, the RSS after the last round may be at most that multiple of the RSS after the first.
/// Witness: at least one frame echoed, none lost or corrupted. Nothing else may fail: no echo-load or churn
/// connection dropped, no pooled buffer left out.
/// </summary>
internal sealed record SoakVerdict(long BaselineResidentBytes, long FinalResidentBytes, IReadOnlyList<string> Failures)
{
    public bool Passed => Failures.Count == 0;

    public double Growth => BaselineResidentBytes == 0 ? 0 : (double)FinalResidentBytes / BaselineResidentBytes;

    public static SoakVerdict Judge(SoakResult result)
    {
        var failures = new List<string>();
        var load = result.Samples.Where(s => s.Phase == "load").Select(s => s.ResidentBytes).ToArray();
        var window = Math.Max(3, load.Length / 10);
        long baseline = 0, final = 0;
        if (load.Length < 2 * window)
        {
            failures.Add($"only {load.Length} samples after warm-up: too few to judge memory (run longer)");
        }
        else
        {
            baseline = Median(load[..window]);
            final = Median(load[^window..]);
            if (final > result.Settings.MaxGrowth * baseline)
            {
                failures.Add($"RSS grew from {baseline / 1048576.0:F1} MB after warm-up to {final / 1048576.0:F1} MB at the end (limit x{result.Settings.MaxGrowth})");
            }
        }

        if (result.Rounds.Count >= 2 && result.Rounds[^1].ResidentBytes > result.Settings.MaxGrowth * result.Rounds[0].ResidentBytes)
        {
            failures.Add($"RSS after churn round {result.Rounds.Count} is {result.Rounds[^1].ResidentBytes / 1048576.0:F1} MB, more than x{result.Settings.MaxGrowth} the {result.Rounds[0].ResidentBytes / 1048576.0:F1} MB after round 1");
        }

        if (result.WitnessFrames == 0)
        {
            failures.Add("the witness echoed no frame");
        }

        if (result.WitnessLost > 0 || result.WitnessCorrupted > 0)
        {
            failures.Add($"the witness lost {result.WitnessLost} and saw {result.WitnessCorrupted} corrupted frames");
        }

        if (result.LoadErrors > 0 || result.ChurnFailures > 0)
        {
            failures.Add($"{result.LoadErrors} echo-load and {result.ChurnFailures} churn connections failed");
        }

        if (result.PooledBuffersOutstanding != 0)
        {
            failures.Add($"{result.PooledBuffersOutstanding} pooled buffers still out after the run");
        }

        return new SoakVerdict(baseline, final, failures);
    }

    private static long Median(long[] values)
    {
        var sorted = values.Order().ToArray();
        return sorted[sorted.Length / 2];
    }
}
