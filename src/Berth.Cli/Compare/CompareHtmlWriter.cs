using System.Globalization;
using System.Net;
using System.Text;
using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Compare;

/// <summary>
/// Writes the comparison as one self-contained HTML page (inline style and SVG, no script, nothing fetched), next to
/// the other pages of the report folder: when and where it ran, the charts, then the tables with every target mark.
/// </summary>
internal static class CompareHtmlWriter
{
    public static void Write(string path, CompareReport report, IReadOnlyList<CompareTable> tables)
    {
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Berth side by side</title><style>")
            .Append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:0.5em 0 1.5em}")
            .Append("td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}th{background:#f3f3f3}")
            .Append("td:first-child,th:first-child,td.text{text-align:left}code{background:#f6f6f6;padding:2px 4px}")
            .Append("dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;max-width:1200px}dt{color:#666}dd{margin:0}")
            .Append(".charts{display:flex;flex-wrap:wrap;gap:8px 24px}.charts figure{margin:0}.charts figcaption{font-weight:600;margin:4px 0}")
            .Append(".met{background:#e3f4e1}.not-met{background:#fbe3e1}.noise{background:#fff4e0}svg text{font-family:system-ui,sans-serif}")
            .Append("</style></head><body><h1>Berth side by side: the C epoll echo, Kestrel and the .NET peers</h1><dl>");
        var provenance = report.Provenance;
        Term(html, "date", provenance.Date.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture));
        html.Append("<dt>command</dt><dd><code>").Append(Encode(provenance.Command)).Append("</code></dd>");
        Term(html, "commit", provenance.Commit + (provenance.Dirty == true ? " with uncommitted changes" : string.Empty));
        Term(html, "machine", provenance.Machine);
        Term(html, "load", $"{RunConditions.LoadText(provenance.LoadAtStart)}; {RunConditions.OtherCpuText(provenance)}");
        Term(html, "rounds", $"{report.Repeat} per cell, Berth once per pair in each; bars are medians, whiskers min-max"
            + (report.Repeat < CompareTargets.MinimumRounds ? $"; no target is judged on fewer than {CompareTargets.MinimumRounds}" : string.Empty));
        foreach (var absent in report.NotRun)
        {
            Term(html, absent.Server, $"not run: {absent.Reason}");
        }

        html.Append("</dl><p>").Append(Encode(report.Conditions)).Append("</p>");
        Charts(html, "Throughput per workload, msg/s (higher is better)", CompareCharts.Throughput(report));
        Charts(html, "Server CPU per message, seconds per million messages (lower is better)", CompareCharts.Cpu(report));
        Charts(html, "Memory per idle connection, KiB (lower is better)", CompareCharts.Idle(report));
        foreach (var table in tables)
        {
            AppendTable(html, table);
        }

        html.Append("</body></html>\n");
        File.WriteAllText(path, html.ToString());
    }

    private static void Term(StringBuilder html, string term, string description) =>
        html.Append("<dt>").Append(Encode(term)).Append("</dt><dd>").Append(Encode(description)).Append("</dd>");

    private static void Charts(StringBuilder html, string title, IReadOnlyList<BarChart> charts)
    {
        if (charts.Count == 0)
        {
            return;
        }

        html.Append("<h2>").Append(Encode(title)).Append("</h2><div class=\"charts\">");
        foreach (var chart in charts)
        {
            html.Append("<figure><figcaption>").Append(Encode(chart.Title)).Append("</figcaption>");
            SvgBarChart.Append(html, chart, ChartLayout.Narrow);
            html.Append("</figure>");
        }

        html.Append("</div>");
    }

    private static void AppendTable(StringBuilder html, CompareTable table)
    {
        html.Append("<h2>").Append(Encode(table.Title)).Append("</h2><table><tr>");
        foreach (var column in table.Columns)
        {
            html.Append("<th>").Append(Encode(column)).Append("</th>");
        }

        html.Append("</tr>");
        foreach (var row in table.Rows)
        {
            html.Append("<tr>");
            foreach (var cell in row)
            {
                html.Append(cell switch
                {
                    TargetVerdict.Met => "<td class=\"met\">",
                    TargetVerdict.NotMet => "<td class=\"not-met\">",
                    TargetVerdict.WithinNoise => "<td class=\"noise\">",
                    _ when IsText(cell) => "<td class=\"text\">",
                    _ => "<td>",
                }).Append(Encode(cell)).Append("</td>");
            }

            html.Append("</tr>");
        }

        html.Append("</table>");
    }

    /// <summary>Words read from the left; figures, ratios and marks line up on the right.</summary>
    private static bool IsText(string cell) =>
        cell.Length > 0 && cell != CompareTargets.NotRun && (char.IsLetter(cell[0]) || cell[0] is '≥' or '≤');

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
