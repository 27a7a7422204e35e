using System.Globalization;
using System.Net;
using System.Text;

using Berth.Results;

namespace Berth.Results.Reports;

/// <summary>
/// Writes one self-contained HTML page: what was run, when and where, the warnings, the tables, then each chart as
/// inline SVG. No script, no external file or font, so the page opens anywhere and can be attached to an issue as it is.
/// </summary>
internal static class HtmlReportWriter
{
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
            html.Append("<h2>").Append(Encode(chart.Title)).Append("</h2>");
            SvgBarChart.Append(html, chart, ChartLayout.Wide);
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

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
