using System.Globalization;
using System.Net;
using System.Text;

namespace Berth.Cli.Soak;

/// <summary>
/// Writes a self-contained HTML page: the verdict and one inline SVG line chart per figure, with the end of warm-up
/// marked. No script, style sheet or font is fetched from anywhere.
/// </summary>
internal static class SoakChartWriter
{
    private const int Width = 720;
    private const int Height = 160;
    private const int Left = 60;
    private const int Bottom = 20;

    public static void Write(string path, SoakResult result)
    {
        var verdict = result.Verdict;
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>berth soak</title></head>")
            .Append("<body style=\"font-family:sans-serif;max-width:760px\">")
            .Append(CultureInfo.InvariantCulture, $"<h1>berth soak: {(verdict.Passed ? "passed" : "FAILED")}</h1>")
            .Append(CultureInfo.InvariantCulture, $"<p>{result.Settings.Duration.TotalSeconds:F0} s, {result.Settings.Connections} echo connections at {result.Settings.Rate} frames/s each, hostile peers {(result.Settings.Hostile ? "on" : "off")}, warm-up {result.Settings.WarmUp.TotalSeconds:F0} s, {Environment.ProcessorCount} cores. ")
            .Append(CultureInfo.InvariantCulture, $"Witness: {result.WitnessFrames} frames checked, {result.WitnessLost} lost, {result.WitnessCorrupted} corrupted. ")
            .Append(CultureInfo.InvariantCulture, $"RSS after warm-up {Mb(verdict.BaselineResidentBytes)} MB, at the end {Mb(verdict.FinalResidentBytes)} MB (limit x{result.Settings.MaxGrowth}).</p>");
        foreach (var failure in verdict.Failures)
        {
            html.Append("<p><b>").Append(WebUtility.HtmlEncode(failure)).Append("</b></p>");
        }

        var samples = result.Samples;
        var warmUp = result.Settings.WarmUp.TotalSeconds;
        Chart(html, "RSS (MB)", samples, s => s.ResidentBytes / 1048576.0, warmUp);
        Chart(html, "GC heap (MB)", samples, s => s.GcHeapBytes / 1048576.0, warmUp);
        Chart(html, "GC committed (MB)", samples, s => s.GcCommittedBytes / 1048576.0, warmUp);
        Chart(html, "allocated per second (MB)", samples, s => s.AllocatedBytes / 1048576.0, warmUp);
        Chart(html, "open handles", samples, s => s.Handles, warmUp);
        Chart(html, "threads", samples, s => s.Threads, warmUp);
        Chart(html, "echoes per second", samples, s => s.EchoesPerSecond, warmUp);
        Chart(html, "witness p99 (ms)", samples, s => s.WitnessP99Microseconds / 1000, warmUp);
        html.Append("</body></html>");
        File.WriteAllText(path, html.ToString());
    }

    private static string Mb(long bytes) => (bytes / 1048576.0).ToString("F1", CultureInfo.InvariantCulture);

    private static void Chart(StringBuilder html, string title, IReadOnlyList<SoakSample> samples, Func<SoakSample, double> value, double warmUp)
    {
        html.Append("<h3>").Append(WebUtility.HtmlEncode(title)).Append("</h3>");
        html.Append(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" style=\"border:1px solid #ccc\">");
        if (samples.Count == 0)
        {
            html.Append("</svg>");
            return;
        }

        var maxX = Math.Max(1, samples[^1].Second);
        var maxY = Math.Max(1e-9, samples.Max(value)) * 1.1;
        double X(double second) => Left + (second / maxX * (Width - Left - 10));
        double Y(double v) => Height - Bottom - (v / maxY * (Height - Bottom - 10));
        html.Append(CultureInfo.InvariantCulture, $"<line x1=\"{X(warmUp):F1}\" y1=\"0\" x2=\"{X(warmUp):F1}\" y2=\"{Height - Bottom}\" stroke=\"#bbb\" stroke-dasharray=\"4\"/>");
        html.Append(CultureInfo.InvariantCulture, $"<text x=\"{X(warmUp) + 4:F1}\" y=\"12\" font-size=\"10\" fill=\"#888\">end of warm-up</text>");
        html.Append(CultureInfo.InvariantCulture, $"<text x=\"2\" y=\"14\" font-size=\"10\">{maxY / 1.1:G4}</text><text x=\"2\" y=\"{Height - Bottom}\" font-size=\"10\">0</text>");
        html.Append(CultureInfo.InvariantCulture, $"<text x=\"{Width - 60}\" y=\"{Height - 4}\" font-size=\"10\">{maxX:F0} s</text>");
        html.Append("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"");
        foreach (var sample in samples)
        {
            html.Append(CultureInfo.InvariantCulture, $"{X(sample.Second):F1},{Y(value(sample)):F1} ");
        }

        html.Append("\"/></svg>");
    }
}
