using System.Globalization;
using System.Net;
using System.Text;

namespace Berth.Cli.Reports;

/// <summary>
/// Writes one self-contained HTML page: the tables, then each chart as inline SVG. No script, no external file,
/// so the page opens anywhere and can be attached to an issue as it is.
/// </summary>
internal static class HtmlReportWriter
{
    private const int BarAreaWidth = 520;
    private const int LabelWidth = 220;
    private const int RowHeight = 22;

    public static void Write(string path, string title, string note, IReadOnlyList<ReportTable> tables, IReadOnlyList<BarChart> charts)
    {
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
            .Append(Encode(title))
            .Append("</title><style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
            .Append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}")
            .Append("th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}code{background:#f6f6f6;padding:2px 4px}")
            .Append("</style></head><body><h1>").Append(Encode(title)).Append("</h1><p>").Append(Encode(note)).Append("</p>");

        foreach (var table in tables)
        {
            html.Append("<h2>").Append(Encode(table.Title)).Append("</h2><p><code>").Append(Encode(table.Command))
                .Append("</code><br>").Append(Encode(table.Machine)).Append("</p><table><tr>");
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
                    html.Append("<td>").Append(Encode(Format(cell))).Append("</td>");
                }

                html.Append("</tr>");
            }

            html.Append("</table>");
        }

        foreach (var chart in charts)
        {
            AppendChart(html, chart);
        }

        html.Append("</body></html>\n");
        File.WriteAllText(path, html.ToString());
    }

    public static string Format(object cell) => cell switch
    {
        double value => value.ToString(value >= 100 ? "N0" : "0.##", CultureInfo.InvariantCulture),
        long value => value.ToString("N0", CultureInfo.InvariantCulture),
        int value => value.ToString(CultureInfo.InvariantCulture),
        _ => cell.ToString() ?? string.Empty,
    };

    private static void AppendChart(StringBuilder html, BarChart chart)
    {
        var max = chart.Values.DefaultIfEmpty(0).Max();
        var height = (chart.Values.Length * RowHeight) + 10;
        var width = LabelWidth + BarAreaWidth + 120;
        html.Append("<h2>").Append(Encode(chart.Title)).Append("</h2>")
            .Append(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-size=\"12\">");
        for (var i = 0; i < chart.Values.Length; i++)
        {
            var y = (i * RowHeight) + 5;
            var barWidth = max > 0 ? chart.Values[i] / max * BarAreaWidth : 0;
            html.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth - 6}\" y=\"{y + 14}\" text-anchor=\"end\">{Encode(chart.Labels[i])}</text>")
                .Append(CultureInfo.InvariantCulture, $"<rect x=\"{LabelWidth}\" y=\"{y + 2}\" width=\"{barWidth:F1}\" height=\"{RowHeight - 6}\" fill=\"#3b6ea8\"/>")
                .Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + barWidth + 6:F1}\" y=\"{y + 14}\">{Encode(Format(chart.Values[i]))} {Encode(chart.Unit)}</text>");
        }

        html.Append("</svg>");
    }

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
