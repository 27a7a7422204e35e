using Berth.Results;

namespace Berth.Tests.Results;

/// <summary>Verdicts on made-up runs, and the other processes' CPU share from made-up /proc readings.</summary>
public sealed class VerdictAndConditionsTests
{
    [Theory]
    [InlineData(3000, 4000, TargetVerdict.Met)]
    [InlineData(3000, 5000, TargetVerdict.WithinNoise)]
    [InlineData(4500, 5000, TargetVerdict.NotMet)]
    public void A_limit_is_met_only_when_every_run_is_within_it(double min, double max, string expected) =>
        Assert.Equal(expected, TargetVerdict.AtMost(new(min, max), 4096));

    [Theory]
    [InlineData(new[] { 1.0, 1.05, 1.08 }, TargetVerdict.Met)]
    [InlineData(new[] { 1.0, 1.05, 1.2 }, TargetVerdict.WithinNoise)]
    [InlineData(new[] { 1.0, 1.15, 1.2 }, TargetVerdict.NotMet)]
    [InlineData(new[] { 1.0, 1.05 }, TargetVerdict.TooFewRounds)]
    [InlineData(new double[0], TargetVerdict.NotMeasured)]
    public void Paired_rounds_meet_a_target_when_the_median_and_every_round_reach_it(double[] rounds, string expected) =>
        Assert.Equal(expected, TargetVerdict.MedianOfRounds(rounds, r => r <= 1.1));

    [Fact]
    public void Other_cpu_share_is_the_busy_time_the_measured_processes_did_not_use()
    {
        // 1,000 ticks passed on all cores; 400 were busy, 350 of them in the measured processes.
        var share = RunConditions.OtherCpuShare((10_000, 2_000), (11_000, 2_400), 500, 850);

        Assert.Equal(0.05, share!.Value, 9);
        Assert.False(Provenance.IsQuiet(share));
        Assert.True(Provenance.IsQuiet(0.049));
    }

    [Fact]
    public void Other_cpu_share_is_unknown_without_readings_and_never_quiet_then()
    {
        Assert.Null(RunConditions.OtherCpuShare(null, (11_000, 2_400), 500, 850));
        Assert.Null(RunConditions.OtherCpuShare((10_000, 2_000), (11_000, 2_400), null, 850));
        Assert.False(Provenance.IsQuiet(null));
    }

    [Fact]
    public void Measured_processes_busier_than_the_machine_count_as_no_other_use()
    {
        // Ticks are sampled at slightly different moments; the difference is floored at zero, never negative.
        Assert.Equal(0, RunConditions.OtherCpuShare((0, 0), (1_000, 300), 0, 310));
    }

    [Fact]
    public void A_real_run_measures_its_own_process_tree()
    {
        var conditions = RunConditions.Start("test");
        var provenance = conditions.Finish();

        Assert.Equal("test", provenance.Command);
        Assert.Equal(Provenance.IsQuiet(provenance.OtherCpuShare), provenance.Quiet);
        Assert.Matches("^[0-9a-f]{40}$", provenance.Commit);
    }
}
