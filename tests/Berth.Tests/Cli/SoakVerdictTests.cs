using Berth.Cli.Soak;

namespace Berth.Tests.Cli;

public class SoakVerdictTests
{
    private static readonly SoakSettings Settings = new() { Duration = TimeSpan.FromSeconds(60) };

    [Fact]
    public void Flat_memory_and_a_clean_witness_pass()
    {
        var verdict = Result(second => 100).Verdict;

        Assert.True(verdict.Passed, string.Join("; ", verdict.Failures));
        Assert.Equal(100 * Mb, verdict.BaselineResidentBytes);
        Assert.Equal(100 * Mb, verdict.FinalResidentBytes);
    }

    [Fact]
    public void Memory_growing_past_the_limit_after_warm_up_fails()
    {
        var verdict = Result(second => 100 + second).Verdict;

        Assert.False(verdict.Passed);
        Assert.Contains(verdict.Failures, f => f.StartsWith("RSS grew", StringComparison.Ordinal));
    }

    [Fact]
    public void Growth_during_warm_up_alone_does_not_fail()
    {
        var verdict = Result(second => second < Settings.WarmUp.TotalSeconds ? 10 * second : 100).Verdict;

        Assert.True(verdict.Passed, string.Join("; ", verdict.Failures));
    }

    [Fact]
    public void A_lost_witness_frame_fails()
    {
        var verdict = (Result(second => 100) with { WitnessLost = 1 }).Verdict;

        Assert.False(verdict.Passed);
        Assert.Contains(verdict.Failures, f => f.Contains("lost 1", StringComparison.Ordinal));
    }

    [Fact]
    public void Memory_kept_after_churn_rounds_fails()
    {
        var rounds = new[] { new ChurnRound(1, 10, 60 * Mb, 0, 0, 0), new ChurnRound(2, 10, 100 * Mb, 0, 0, 0) };
        var verdict = (Result(second => 100) with { Rounds = rounds }).Verdict;

        Assert.False(verdict.Passed);
        Assert.Contains(verdict.Failures, f => f.Contains("churn round 2", StringComparison.Ordinal));
    }

    private const long Mb = 1024 * 1024;

    private static SoakResult Result(Func<int, long> residentMb)
    {
        var samples = Enumerable.Range(1, 60)
            .Select(second => Sample(second, residentMb(second) * Mb, second < Settings.WarmUp.TotalSeconds ? "warm-up" : "load"))
            .ToList();
        var last = samples[^1];
        return new SoakResult(Settings, samples, [], last, last) { WitnessFrames = 1000 };
    }

    private static SoakSample Sample(int second, long resident, string phase) =>
        new(second, resident, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, phase);
}
