using System.Globalization;
using System.Net;
using System.Text;

using Berth.Results;

namespace Berth.Cli.Reports;

/// <summary>
/// Writes one self-contained HTML page: what was run, when and where, the warnings, the tables, then each chart as
/// inline SVG. No script, no external file or font, so the page opens anywhere and can be attached to an issue as it is.
/// </summary>
internal static class HtmlReportWriter
{
    private const int LabelWidth = 230;
    private const int PlotWidth = 560;
    private const int ValueWidth = 150;
    private const int BarHeight = 14;
    private const int GroupGap = 8;
    private const int AxisHeight = 40;
    private const int LegendHeight = 22;
    private static readonly string[] Colors = ["#3b6ea8", "#e08a2c", "#5a9e4b", "#a0479c"];

    public static void Write(string path, Report report)
    {
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
            .Append(Encode(report.Title))
            .Append("</title><style>body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1000px}")
            .Append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}")
            .Append("td{white-space:nowrap}.range{font-size:80%;color:#777}th{background:#f3f3f3}td:first-child,th:first-child,td.text{text-align:left}code{background:#f6f6f6;padding:2px 4px}")
            .Append("dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{color:#666}dd{margin:0}")
            .Append(".warning{background:#fff4e0;border-left:4px solid #e08a2c;padding:6px 12px;margin:6px 0}")
            .Append("svg text{font-family:system-ui,sans-serif}</style></head><body><h1>").Append(Encode(report.Title)).Append("</h1>")
            .Append("<dl><dt>date</dt><dd>").Append(Encode(report.Provenance.Date.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture)))
            .Append("</dd><dt>command</dt><dd><code>").Append(Encode(report.Provenance.Command))
            .Append("</code></dd><dt>commit</dt><dd>").Append(Encode(report.Provenance.Commit))
            .Append("</dd><dt>machine</dt><dd>").Append(Encode(report.Provenance.Machine))
            .Append("</dd><dt>load</dt><dd>").Append(Encode(RunConditions.LoadText(report.Provenance.LoadAtStart)))
            .Append("</dd><dt>other CPU</dt><dd>").Append(Encode(RunConditions.OtherCpuText(report.Provenance))).Append("</dd></dl>");
        foreach (var warning in report.Warnings())
        {
            html.Append("<p class=\"warning\">").Append(Encode(warning)).Append("</p>");
        }

        html.Append("<p>").Append(Encode(report.Note)).Append("</p>");
        foreach (var table in report.Tables)
        {
            AppendTable(html, table);
        }

        foreach (var chart in report.Charts)
        {
            AppendChart(html, chart);
        }

        html.Append("</body></html>\n");
        File.WriteAllText(path, html.ToString());
    }

    private static void AppendTable(StringBuilder html, ReportTable table)
    {
        html.Append("<h2>").Append(Encode(table.Title)).Append("</h2><table><tr>");
        foreach (var column in table.Columns)
        {
            html.Append("<th>").Append(Encode(column.Title)).Append("</th>");
        }

        html.Append("</tr>");
        foreach (var row in table.Rows)
        {
            html.Append("<tr>");
            foreach (var cell in row)
            {
                html.Append(cell is string ? "<td class=\"text\">" : "<td>");
                if (cell is Spread { IsSingle: false } spread)
                {
                    // The median reads first; the range sits under it, smaller, so columns stay narrow.
                    html.Append(Encode(CellText.Number(spread.Median))).Append("<br><span class=\"range\">")
                        .Append(Encode($"{CellText.Number(spread.Min)}–{CellText.Number(spread.Max)}")).Append("</span>");
                }
                else
                {
                    html.Append(Encode(CellText.Format(cell)));
                }

                html.Append("</td>");
            }

            html.Append("</tr>");
        }

        html.Append("</table>");
    }

    private static void AppendChart(StringBuilder html, BarChart chart)
    {
        var axis = Axis.For(chart);
        var groupHeight = (chart.Series.Count * BarHeight) + GroupGap;
        var height = LegendHeight + (chart.Labels.Count * groupHeight) + AxisHeight;
        var width = LabelWidth + PlotWidth + ValueWidth;
        var top = LegendHeight;
        var plotBottom = top + (chart.Labels.Count * groupHeight);
        html.Append("<h2>").Append(Encode(chart.Title)).Append("</h2>")
            .Append(Invariant($"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-size=\"12\" role=\"img\">"));

        for (var s = 0; s < chart.Series.Count && chart.Series.Count > 1; s++)
        {
            var x = LabelWidth + (s * 110);
            html.Append(Invariant($"<rect x=\"{x}\" y=\"4\" width=\"12\" height=\"12\" fill=\"{Colors[s % Colors.Length]}\"/>"))
                .Append(Invariant($"<text x=\"{x + 16}\" y=\"14\">{Encode(chart.Series[s].Name)}</text>"));
        }

        foreach (var (value, text) in axis.Ticks())
        {
            var x = LabelWidth + axis.Position(value);
            html.Append(Invariant($"<line x1=\"{x:F1}\" y1=\"{top}\" x2=\"{x:F1}\" y2=\"{plotBottom}\" stroke=\"#ddd\"/>"))
                .Append(Invariant($"<text x=\"{x:F1}\" y=\"{plotBottom + 14}\" text-anchor=\"middle\" fill=\"#555\">{Encode(text)}</text>"));
        }

        html.Append(Invariant($"<text x=\"{LabelWidth + (PlotWidth / 2)}\" y=\"{plotBottom + 32}\" text-anchor=\"middle\" fill=\"#555\">{Encode(chart.Unit)}{(axis.Logarithmic ? " (log scale)" : string.Empty)}</text>"));
        for (var label = 0; label < chart.Labels.Count; label++)
        {
            var groupTop = top + (label * groupHeight);
            html.Append(Invariant($"<text x=\"{LabelWidth - 8}\" y=\"{groupTop + (chart.Series.Count * BarHeight / 2.0) + 4:F1}\" text-anchor=\"end\">{Encode(chart.Labels[label])}</text>"));
            for (var s = 0; s < chart.Series.Count; s++)
            {
                var value = chart.Series[s].Values[label];
                var y = groupTop + (s * BarHeight);
                var end = axis.Position(value.Median);
                html.Append(Invariant($"<rect x=\"{LabelWidth}\" y=\"{y + 1}\" width=\"{end:F1}\" height=\"{BarHeight - 2}\" fill=\"{Colors[s % Colors.Length]}\"><title>{Encode(chart.Series[s].Name)}: {Encode(CellText.Format(value))} {Encode(chart.Unit)}</title></rect>"));
                var textAt = end;
                if (!value.IsSingle)
                {
                    var (low, high) = (LabelWidth + axis.Position(value.Min), LabelWidth + axis.Position(value.Max));
                    var middle = y + (BarHeight / 2.0);
                    html.Append(Invariant($"<path d=\"M{low:F1} {middle:F1}H{high:F1}M{low:F1} {middle - 4:F1}V{middle + 4:F1}M{high:F1} {middle - 4:F1}V{middle + 4:F1}\" stroke=\"#222\" fill=\"none\"/>"));
                    textAt = Math.Max(end, high - LabelWidth);
                }

                html.Append(Invariant($"<text x=\"{LabelWidth + textAt + 5:F1}\" y=\"{y + BarHeight - 3}\" font-size=\"11\">{Encode(CellText.Number(value.Median))}</text>"));
            }
        }

        html.Append(Invariant($"<line x1=\"{LabelWidth}\" y1=\"{top}\" x2=\"{LabelWidth}\" y2=\"{plotBottom}\" stroke=\"#888\"/>")).Append("</svg>");
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    private static string Encode(string text) => WebUtility.HtmlEncode(text);

    /// <summary>Maps values onto the plot's width, linearly from zero or by decades.</summary>
    private sealed record Axis(bool Logarithmic, double Low, double High)
    {
        public static Axis For(BarChart chart)
        {
            var values = chart.Series.SelectMany(s => s.Values).SelectMany(v => new[] { v.Min, v.Max, v.Median }).ToList();
            var max = values.DefaultIfEmpty(0).Max();
            if (chart.Logarithmic && values.Any(v => v > 0))
            {
                var min = values.Where(v => v > 0).Min();
                return new Axis(true, Math.Pow(10, Math.Floor(Math.Log10(min))), Math.Pow(10, Math.Ceiling(Math.Log10(max * 1.0001))));
            }

            return new Axis(false, 0, max > 0 ? NiceCeiling(max) : 1);
        }

        public double Position(double value)
        {
            if (Logarithmic)
            {
                var clamped = Math.Clamp(value, Low, High);
                return (Math.Log10(clamped) - Math.Log10(Low)) / (Math.Log10(High) - Math.Log10(Low)) * PlotWidth;
            }

            return Math.Clamp(value / High, 0, 1) * PlotWidth;
        }

        public IEnumerable<(double Value, string Text)> Ticks()
        {
            if (Logarithmic)
            {
                for (var value = Low; value <= High * 1.0001; value *= 10)
                {
                    yield return (value, CellText.Number(value));
                }

                yield break;
            }

            for (var i = 0; i <= 4; i++)
            {
                yield return (High * i / 4, CellText.Number(High * i / 4));
            }
        }

        private static double NiceCeiling(double value)
        {
            var decade = Math.Pow(10, Math.Floor(Math.Log10(value)));
            return new[] { 1, 2, 2.5, 4, 5, 10 }.Select(step => step * decade).First(step => step >= value);
        }
    }
}
