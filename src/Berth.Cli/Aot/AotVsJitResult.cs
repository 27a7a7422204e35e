using System.Globalization;
using Berth.Cli.Compare;
using Berth.Results;

namespace Berth.Cli.Aot;

/// <summary>
/// The result file of <c>berth aot-vs-jit</c> (docs/RESULTS.md): each build's figures over the rounds, and every
/// NativeAOT build's targets judged round by round: start and RSS against the stronger JIT build's run of the same
/// round, msg/s against the JIT build's run started right next to it.
/// </summary>
internal static class AotVsJitResult
{
    public const double ListeningTarget = 0.3;
    public const double IdleResidentTarget = 0.6;
    public const double ThroughputTarget = 0.9;

    public static ResultFile Build(Provenance provenance, AotVsJitSettings settings, IReadOnlyList<AotVsJitSample> samples)
    {
        var rotation = samples.Where(s => s.PairedWith is null).ToList();
        var builds = new ResultTable(
            "builds",
            $"berth serve per build, {settings.Rounds} interleaved round(s)",
            [
                new("build", CellFormat.Text),
                new("start to listening", CellFormat.Range),
                new("idle RSS", CellFormat.Range),
                new($"msg/s, {AotVsJitRun.Cell.Label}", CellFormat.Range),
                new("size on disk", CellFormat.Bytes),
            ],
            [
                .. settings.Builds.Select(build => new object?[]
                {
                    build.Name,
                    Range(rotation, build.Name, s => s.ListeningMilliseconds, CellFormat.Ms),
                    Range(rotation, build.Name, s => s.IdleResidentBytes, CellFormat.Bytes),
                    Range(rotation, build.Name, s => s.MessagesPerSecond, CellFormat.Count),
                    (double)build.SizeBytes(),
                }),
            ],
            [Conditions(settings)]);
        var targets = new ResultTable(
            "targets",
            "Each NativeAOT build against the JIT builds, round by round",
            [
                new("measure", CellFormat.Text),
                new("target", CellFormat.Text),
                new("build", CellFormat.Text),
                new("value", CellFormat.Range),
                new("JIT anchor", CellFormat.Text),
                new("anchor", CellFormat.Range),
                new("ratio per round", CellFormat.Text),
                new("median ratio", CellFormat.Ratio),
                new("verdict", CellFormat.Verdict),
            ],
            [
                .. RotationTargets(settings, rotation, "start to listening", s => s.ListeningMilliseconds, CellFormat.Ms, ListeningTarget),
                .. RotationTargets(settings, rotation, "idle RSS", s => s.IdleResidentBytes, CellFormat.Bytes, IdleResidentTarget),
                .. ThroughputTargets(settings, rotation, samples),
            ],
            [
                "Every round starts every build, so a round's ratio compares a NativeAOT build with its anchor under that round's conditions. "
                + "Start and idle RSS: the anchor is the JIT build with the better median on that measure, its run in the same round. "
                + "msg/s: the anchor is the JIT build started together with the NativeAOT build, the load alternating between the two in segments, "
                + "so a shift in the machine's rate within a round falls on both sides of the ratio. "
                + $"A target is met when the median of at least {TargetVerdict.MinimumRounds} rounds' ratios reaches it and so does every round, "
                + "within noise when only the median does, not met when the median does not (docs/RESULTS.md, Verdicts). "
                + "A NativeAOT run whose load failed counts as 0 msg/s.",
            ]);
        return new ResultFile(provenance, [builds, targets]);
    }

    private static IEnumerable<object?[]> RotationTargets(
        AotVsJitSettings settings, IReadOnlyList<AotVsJitSample> rotation, string measure, Func<AotVsJitSample, double> value, CellFormat unit, double target)
    {
        var anchors = settings.Builds.Where(b => !b.IsNative)
            .Select(b => (b.Name, Range: Range(rotation, b.Name, value, unit)))
            .Where(a => a.Range is not null)
            .ToList();
        var anchor = anchors.Count == 0 ? default : anchors.MinBy(a => a.Range!.Median);
        foreach (var build in settings.Builds.Where(b => b.IsNative))
        {
            var ratios = anchor.Name is null ? [] : Ratios(rotation.Where(s => s.Build == build.Name), rotation.Where(s => s.Build == anchor.Name), value, lowerIsBetter: true);
            yield return Row(measure, target, lowerIsBetter: true, build.Name, Range(rotation, build.Name, value, unit), anchor.Name ?? "-", anchor.Range, ratios);
        }
    }

    private static IEnumerable<object?[]> ThroughputTargets(
        AotVsJitSettings settings, IReadOnlyList<AotVsJitSample> rotation, IReadOnlyList<AotVsJitSample> samples)
    {
        var anchor = settings.ThroughputAnchor.Name;
        foreach (var build in settings.Builds.Where(b => b.IsNative))
        {
            var paired = samples.Where(s => s.Build == anchor && s.PairedWith == build.Name).ToList();
            var ratios = Ratios(rotation.Where(s => s.Build == build.Name), paired, s => s.MessagesPerSecond, lowerIsBetter: false);
            yield return Row(
                $"msg/s, {AotVsJitRun.Cell.Label}", ThroughputTarget, lowerIsBetter: false, build.Name,
                Range(rotation, build.Name, s => s.MessagesPerSecond, CellFormat.Count),
                $"{anchor}, run next to it", Range(paired, s => s.MessagesPerSecond, CellFormat.Count), ratios);
        }
    }

    private static object?[] Row(
        string measure, double target, bool lowerIsBetter, string build, ResultRange? range, string anchorName, ResultRange? anchorRange, List<double> ratios)
    {
        var targetText = string.Create(CultureInfo.InvariantCulture, $"{(lowerIsBetter ? "at most" : "at least")} {target:0.0#}x");
        var verdict = TargetVerdict.MedianOfRounds(ratios, lowerIsBetter ? r => r <= target : r => r >= target);
        return
        [
            measure, targetText, build, range, anchorName, anchorRange,
            ratios.Count == 0 ? "-" : string.Join(' ', ratios.Select(r => r.ToString("0.00'x'", CultureInfo.InvariantCulture))),
            ratios.Count == 0 ? null : ResultRange.Of(ratios, CellFormat.Ratio).Median,
            verdict,
        ];
    }

    /// <summary>
    /// The build's value over the anchor's, round by round, for every round in which the anchor measured something. A
    /// NativeAOT run that measured nothing counts against it (0 for a higher-is-better measure), so a failure never
    /// drops out of the verdict.
    /// </summary>
    private static List<double> Ratios(
        IEnumerable<AotVsJitSample> build, IEnumerable<AotVsJitSample> anchor, Func<AotVsJitSample, double> value, bool lowerIsBetter) =>
        [.. build
            .Join(anchor, s => s.Round, s => s.Round, (b, a) => (Build: value(b), Anchor: value(a)))
            .Where(pair => double.IsFinite(pair.Anchor) && pair.Anchor > 0)
            .Select(pair => double.IsFinite(pair.Build) ? pair.Build / pair.Anchor : lowerIsBetter ? double.PositiveInfinity : 0)];

    /// <summary>The range of a build's measured rounds; null when none was measured (a failed load run has no rate).</summary>
    private static ResultRange? Range(IReadOnlyList<AotVsJitSample> samples, string build, Func<AotVsJitSample, double> value, CellFormat unit) =>
        Range(samples.Where(s => s.Build == build), value, unit);

    private static ResultRange? Range(IEnumerable<AotVsJitSample> runs, Func<AotVsJitSample, double> value, CellFormat unit)
    {
        var values = runs.Select(value).Where(double.IsFinite).ToList();
        return values.Count == 0 ? null : ResultRange.Of(values, unit);
    }

    private static string Conditions(AotVsJitSettings settings) => string.Create(
        CultureInfo.InvariantCulture,
        $"Each round starts every build's berth serve afresh on 127.0.0.1 with its defaults, in an order that rotates from round to round, after one "
        + $"unmeasured start of each so every build reads its files from the page cache. Start to listening runs from the process start to its "
        + $"'listening on' line; idle RSS is VmRSS {settings.IdleSettle.TotalSeconds:0.#} s after that line; msg/s is the C load generator of the "
        + $"comparison ({AotVsJitRun.Cell.Label}, pipeline {AotVsJitRun.Cell.Pipeline}, every echo checked) over {settings.Duration.TotalSeconds:0.#} s after "
        + $"{settings.Warmup.TotalSeconds:0.#} s of warm-up. A NativeAOT build's msg/s and that of the JIT build next to it come from both servers up at once: after "
        + $"{settings.Warmup.TotalSeconds:0.#} s of warm-up each, the load alternates between them, NativeAOT, JIT, JIT, NativeAOT (the mirror by turns), "
        + $"{AlternatingSegments.Count} segments each of {(settings.Duration / AlternatingSegments.Count).TotalSeconds:0.##} s measured after {AlternatingSegments.Ramp.TotalSeconds:0.##} s, "
        + $"and each build's msg/s is the mean of its segments'. Size on disk counts the publish folder without symbols and documentation; "
        + $"a JIT build also needs the shared .NET runtime, not counted. The JIT build is the framework-dependent publish the tool ships; "
        + $"the ReadyToRun build, when run, is that publish with precompiled code in its assemblies, which the JIT's tiered compilation replaces where it pays.");
}
