using Berth.Cli.Aot;
using Berth.Results;

namespace Berth.Tests.Cli;

/// <summary>
/// The targets of <c>berth aot-vs-jit</c>: every NativeAOT build judged round by round, start and RSS against the
/// stronger JIT build's run of the round, msg/s against the JIT run started next to its own.
/// </summary>
public sealed class AotVsJitResultTests
{
    private const string Speed = "NativeAOT, Speed";

    private static readonly string Folder = AppContext.BaseDirectory;

    [Fact]
    public void ThroughputIsJudgedOnEachRoundsPairNotOnTheWholeRanges()
    {
        // Every build slows down together in round 2; NativeAOT is 0.95x the JIT build in every round. The whole
        // ranges (95-220) would straddle 0.9x; the pairs do not.
        var targets = Targets(
            Builds(),
            [.. Round(0, native: 209, jit: 220), .. Round(1, native: 95, jit: 100), .. Round(2, native: 190, jit: 200)]);

        var row = Row(targets, "msg/s", AotBuild.Native);
        Assert.Equal("0.95x 0.95x 0.95x", row[6]);
        Assert.Equal(0.95, (double)row[7]!, 9);
        Assert.Equal(TargetVerdict.Met, row[8]);
    }

    [Fact]
    public void AMedianThatReachesTheTargetOverARoundThatDoesNotIsWithinNoise()
    {
        var targets = Targets(
            Builds(),
            [.. Round(0, native: 92, jit: 100), .. Round(1, native: 85, jit: 100), .. Round(2, native: 111, jit: 100)]);

        var row = Row(targets, "msg/s", AotBuild.Native);
        Assert.Equal("0.92x 0.85x 1.11x", row[6]);
        Assert.Equal(TargetVerdict.WithinNoise, row[8]);
    }

    [Fact]
    public void AFailedNativeRunCountsAsZeroAndFewerThanThreeRoundsGiveNoVerdict()
    {
        var failed = Targets(
            Builds(),
            [.. Round(0, native: 100, jit: 100), .. Round(1, native: double.NaN, jit: 100), .. Round(2, native: 100, jit: 100)]);
        Assert.Equal("1.00x 0.00x 1.00x", Row(failed, "msg/s", AotBuild.Native)[6]);
        Assert.Equal(TargetVerdict.WithinNoise, Row(failed, "msg/s", AotBuild.Native)[8]);

        var twoRounds = Targets(Builds(), [.. Round(0, native: 100, jit: 100), .. Round(1, native: 100, jit: 100)]);
        Assert.Equal("< 3 rounds", Row(twoRounds, "msg/s", AotBuild.Native)[8]);
    }

    [Fact]
    public void EveryNativeBuildHasItsOwnRowOnEveryMeasureAgainstItsOwnPairedRuns()
    {
        var builds = Builds(new AotBuild(Speed, Path.Combine(Folder, "berth"), IsNative: true));
        List<AotVsJitSample> samples = [];
        for (var round = 0; round < 3; round++)
        {
            samples.AddRange(Round(round, native: 90, jit: 100));
            samples.Add(new AotVsJitSample(Speed, round, 5, 10, 99, 0));
            samples.Add(new AotVsJitSample(AotBuild.Jit, round, 50, 40, 100, 0, PairedWith: Speed));
        }

        var targets = Targets(builds, samples);

        Assert.Equal(6, targets.Rows.Count);
        var speed = Row(targets, "msg/s", Speed);
        Assert.StartsWith(AotBuild.Jit, (string)speed[4]!, StringComparison.Ordinal);
        Assert.Equal("0.99x 0.99x 0.99x", speed[6]);
        Assert.Equal(TargetVerdict.Met, speed[8]);
        Assert.Equal(TargetVerdict.Met, Row(targets, "msg/s", AotBuild.Native)[8]);
        // Start to listening: 5 ms against 50 ms in every round, at most 0.3x.
        Assert.Equal(TargetVerdict.Met, Row(targets, "start to listening", Speed)[8]);
    }

    private static List<AotBuild> Builds(params AotBuild[] variants) =>
    [
        new(AotBuild.Native, Path.Combine(Folder, "berth"), IsNative: true),
        .. variants,
        new(AotBuild.Jit, Path.Combine(Folder, "berth"), IsNative: false),
    ];

    [Fact]
    public void ThroughputIsJudgedAgainstTheJitRunNextToItNotTheRoundsRotationRun()
    {
        // In every round the machine's rate fell by a fifth after the rotation's JIT run: against that run NativeAOT
        // would be 0.8x; against the JIT run started next to it, under the same rate, it is 0.96x.
        List<AotVsJitSample> samples = [];
        for (var round = 0; round < 3; round++)
        {
            samples.Add(new AotVsJitSample(AotBuild.Jit, round, 50, 40, 250, 0));
            samples.Add(new AotVsJitSample(AotBuild.Native, round, 5, 10, 192, 0));
            samples.Add(new AotVsJitSample(AotBuild.Jit, round, 50, 40, 200, 0, PairedWith: AotBuild.Native));
        }

        var targets = Targets(Builds(), samples);

        var row = Row(targets, "msg/s", AotBuild.Native);
        Assert.Equal("0.96x 0.96x 0.96x", row[6]);
        Assert.Equal(TargetVerdict.Met, row[8]);
        // The paired runs are the anchor's range; the builds table keeps one run per build per round.
        Assert.Equal(200, ((ResultRange)row[5]!).Median);
        var builds = ResultOf(Builds(), samples).Tables.Single(t => t.Id == "builds");
        Assert.Equal(250, ((ResultRange)builds.Rows.Single(r => (string)r[0]! == AotBuild.Jit)[3]!).Median);
        // Start and RSS still compare the rotation's runs: 5 ms against 50 ms.
        Assert.Equal("0.10x 0.10x 0.10x", Row(targets, "start to listening", AotBuild.Native)[6]);
    }

    [Fact]
    public void ANativeBuildWithoutPairedRunsHasNoThroughputRatio()
    {
        List<AotVsJitSample> samples = [];
        for (var round = 0; round < 3; round++)
        {
            samples.Add(new AotVsJitSample(AotBuild.Jit, round, 50, 40, 100, 0));
            samples.Add(new AotVsJitSample(AotBuild.Native, round, 5, 10, 100, 0));
        }

        var row = Row(Targets(Builds(), samples), "msg/s", AotBuild.Native);
        Assert.Equal("-", row[6]);
        Assert.Equal(TargetVerdict.NotMeasured, row[8]);
    }

    // A round as the run makes it: the rotation's run of each build, and the JIT run started next to the NativeAOT one.
    private static AotVsJitSample[] Round(int round, double native, double jit) =>
    [
        new(AotBuild.Native, round, 5, 10, native, double.IsNaN(native) ? 1 : 0),
        new(AotBuild.Jit, round, 50, 40, jit, 0),
        new(AotBuild.Jit, round, 50, 40, jit, 0, PairedWith: AotBuild.Native),
    ];

    private static ResultTable Targets(IReadOnlyList<AotBuild> builds, IReadOnlyList<AotVsJitSample> samples) =>
        ResultOf(builds, samples).Tables.Single(t => t.Id == "targets");

    private static ResultFile ResultOf(IReadOnlyList<AotBuild> builds, IReadOnlyList<AotVsJitSample> samples)
    {
        var settings = new AotVsJitSettings(builds, 3, TimeSpan.Zero, TimeSpan.Zero, TimeSpan.FromSeconds(1), null, "berth aot-vs-jit");
        var provenance = new Provenance(DateTimeOffset.UnixEpoch, "abc", false, "machine", [0.1], null, false, "berth aot-vs-jit", null);
        return AotVsJitResult.Build(provenance, settings, samples);
    }

    private static IReadOnlyList<object?> Row(ResultTable targets, string measure, string build) =>
        targets.Rows.Single(r => ((string)r[0]!).StartsWith(measure, StringComparison.Ordinal) && (string)r[2]! == build);
}
