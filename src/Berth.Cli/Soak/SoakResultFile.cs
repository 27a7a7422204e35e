using System.Globalization;
using Berth.Results;

namespace Berth.Cli.Soak;

/// <summary>
/// A soak as a berth-result/1 file (docs/RESULTS.md): the <c>summary</c> table holds each judged figure with its
/// verdict, the <c>attacks</c> table how often each hostile peer ran and how often the server held. The per-second
/// samples stay in soak.json.
/// </summary>
internal static class SoakResultFile
{
    public static ResultFile Build(SoakResult result, Provenance provenance)
    {
        var verdict = result.Verdict;
        var settings = result.Settings;
        static string Verdict(bool met) => met ? TargetVerdict.Met : TargetVerdict.NotMet;
        string Mib(long bytes) => CellText.Number(bytes, CellFormat.Bytes);
        var memoryJudged = verdict.BaselineResidentBytes > 0;
        var summary = new ResultTable(
            "summary",
            null,
            [new("figure", CellFormat.Text), new("measured", CellFormat.Text), new("verdict", CellFormat.Verdict)],
            [
                [
                    "RSS after warm-up → at the end",
                    memoryJudged
                        ? string.Create(CultureInfo.InvariantCulture, $"{Mib(verdict.BaselineResidentBytes)} → {Mib(verdict.FinalResidentBytes)} (x{verdict.Growth:0.00}, limit x{settings.MaxGrowth:0.0#})")
                        : "too few samples after warm-up",
                    memoryJudged ? Verdict(verdict.FinalResidentBytes <= settings.MaxGrowth * verdict.BaselineResidentBytes) : TargetVerdict.NotMeasured,
                ],
                [
                    "witness frames echoed / lost / corrupted",
                    string.Create(CultureInfo.InvariantCulture, $"{result.WitnessFrames:N0} / {result.WitnessLost:N0} / {result.WitnessCorrupted:N0}"),
                    Verdict(result.WitnessFrames > 0 && result.WitnessLost == 0 && result.WitnessCorrupted == 0),
                ],
                [
                    "echo-load / churn connections failed",
                    string.Create(CultureInfo.InvariantCulture, $"{result.LoadErrors:N0} / {result.ChurnFailures:N0} (of {result.Churned:N0} churned)"),
                    Verdict(result.LoadErrors == 0 && result.ChurnFailures == 0),
                ],
                [
                    "pooled buffers out after the run",
                    result.PooledBuffersOutstanding.ToString("N0", CultureInfo.InvariantCulture),
                    Verdict(result.PooledBuffersOutstanding == 0),
                ],
            ],
            [string.Create(
                CultureInfo.InvariantCulture,
                $"{settings.Duration.TotalSeconds:0.#} s of load ({settings.WarmUp.TotalSeconds:0.#} s warm-up), {settings.Connections} echo connections at {settings.Rate:0.#} frames/s each, hostile peers {(settings.Hostile ? "on" : "off")}, {settings.ChurnRounds} churn rounds. Overall: {(verdict.Passed ? "passed" : "failed: " + string.Join("; ", verdict.Failures))}.")]);
        var attacks = new ResultTable(
            "attacks",
            null,
            [new("attack", CellFormat.Text), new("runs", CellFormat.Int), new("held", CellFormat.Int)],
            [.. result.Attacks.OrderBy(a => a.Key, StringComparer.Ordinal).Select(a => (IReadOnlyList<object?>)[a.Key, (double)a.Value.Runs, (double)a.Value.Held])],
            []);
        return new ResultFile(provenance, [summary, attacks]);
    }
}
