using System.Globalization;
using Berth.Results;

namespace Berth.Cli.Aot;

/// <summary>
/// The result file of <c>berth aot-vs-jit</c> (docs/RESULTS.md): each build's figures over the rounds, and the
/// NativeAOT targets judged against the stronger JIT build on each measure.
/// </summary>
internal static class AotVsJitResult
{
    public const double ListeningTarget = 0.3;
    public const double IdleResidentTarget = 0.6;
    public const double ThroughputTarget = 0.9;

    public static ResultFile Build(Provenance provenance, AotVsJitSettings settings, IReadOnlyList<AotVsJitSample> samples)
    {
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
                    Range(samples, build.Name, s => s.ListeningMilliseconds, CellFormat.Ms),
                    Range(samples, build.Name, s => s.IdleResidentBytes, CellFormat.Bytes),
                    Range(samples, build.Name, s => s.MessagesPerSecond, CellFormat.Count),
                    (double)build.SizeBytes(),
                }),
            ],
            [Conditions(settings)]);
        var targets = new ResultTable(
            "targets",
            "NativeAOT against the stronger JIT build on each measure",
            [
                new("measure", CellFormat.Text),
                new("target", CellFormat.Text),
                new(AotBuild.Native, CellFormat.Range),
                new("JIT anchor", CellFormat.Text),
                new("anchor", CellFormat.Range),
                new("ratio", CellFormat.Ratio),
                new("verdict", CellFormat.Verdict),
            ],
            [
                Target(settings, samples, "start to listening", s => s.ListeningMilliseconds, CellFormat.Ms, ListeningTarget, lowerIsBetter: true),
                Target(settings, samples, "idle RSS", s => s.IdleResidentBytes, CellFormat.Bytes, IdleResidentTarget, lowerIsBetter: true),
                Target(settings, samples, $"msg/s, {AotVsJitRun.Cell.Label}", s => s.MessagesPerSecond, CellFormat.Count, ThroughputTarget, lowerIsBetter: false),
            ],
            [
                "The ratio is NativeAOT's median over the anchor's. A verdict is judged on the whole range of both builds' rounds "
                + "(docs/RESULTS.md, Verdicts): met only when even the least favourable pairing of rounds meets the target.",
            ]);
        return new ResultFile(provenance, [builds, targets]);
    }

    private static object?[] Target(
        AotVsJitSettings settings, IReadOnlyList<AotVsJitSample> samples, string measure, Func<AotVsJitSample, double> value, CellFormat unit, double target, bool lowerIsBetter)
    {
        var native = Range(samples, AotBuild.Native, value, unit);
        var anchors = settings.Builds.Where(b => b.Name != AotBuild.Native)
            .Select(b => (b.Name, Range: Range(samples, b.Name, value, unit)))
            .Where(a => a.Range is not null)
            .ToList();
        var anchor = anchors.Count == 0 ? default
            : lowerIsBetter ? anchors.MinBy(a => a.Range!.Median) : anchors.MaxBy(a => a.Range!.Median);
        var targetText = string.Create(CultureInfo.InvariantCulture, $"{(lowerIsBetter ? "at most" : "at least")} {target:0.0#}x");
        if (native is null || anchor.Range is null)
        {
            return [measure, targetText, native, anchor.Name ?? "-", anchor.Range, null, TargetVerdict.NotMeasured];
        }

        var nativeBounds = new ValueBounds(native.Min, native.Max);
        var anchorBounds = new ValueBounds(anchor.Range.Min, anchor.Range.Max);
        var verdict = lowerIsBetter
            ? TargetVerdict.RatioAtMost(nativeBounds, anchorBounds, target)
            : TargetVerdict.RatioAtLeast(nativeBounds, anchorBounds, target);
        return [measure, targetText, native, anchor.Name, anchor.Range, native.Median / anchor.Range.Median, verdict];
    }

    /// <summary>The range of a build's measured rounds; null when none was measured (a failed load run has no rate).</summary>
    private static ResultRange? Range(IReadOnlyList<AotVsJitSample> samples, string build, Func<AotVsJitSample, double> value, CellFormat unit)
    {
        var values = samples.Where(s => s.Build == build).Select(value).Where(double.IsFinite).ToList();
        return values.Count == 0 ? null : ResultRange.Of(values, unit);
    }

    private static string Conditions(AotVsJitSettings settings) => string.Create(
        CultureInfo.InvariantCulture,
        $"Each round starts every build's berth serve afresh on 127.0.0.1 with its defaults, in an order that rotates from round to round, after one "
        + $"unmeasured start of each so every build reads its files from the page cache. Start to listening runs from the process start to its "
        + $"'listening on' line; idle RSS is VmRSS {settings.IdleSettle.TotalSeconds:0.#} s after that line; msg/s is the C load generator of the "
        + $"comparison ({AotVsJitRun.Cell.Label}, pipeline {AotVsJitRun.Cell.Pipeline}, every echo checked) over {settings.Duration.TotalSeconds:0.#} s after "
        + $"{settings.Warmup.TotalSeconds:0.#} s of warm-up. Size on disk counts the publish folder without symbols and documentation; "
        + $"a JIT build also needs the shared .NET runtime, not counted. The JIT build is the framework-dependent publish the tool ships; "
        + $"the ReadyToRun build, when run, is that publish with precompiled code in its assemblies, which the JIT's tiered compilation replaces where it pays.");
}
