using System.Net;
using System.Text;
using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>
/// Writes the comparison as one self-contained HTML page (inline style, no script, nothing fetched), next to the
/// other pages of the report folder.
/// </summary>
internal static class CompareHtmlWriter
{
    public static void Write(string path, CompareReport report, IReadOnlyList<CompareTable> tables)
    {
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Berth side by side</title><style>")
            .Append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:0.5em 0 1.5em}")
            .Append("td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}th{background:#f3f3f3}")
            .Append("td:first-child,th:first-child{text-align:left}code{background:#f6f6f6;padding:2px 4px}")
            .Append(".met{background:#e3f4e1}.not-met{background:#fbe3e1}.noise{background:#fff4e0}")
            .Append("</style></head><body><h1>Berth side by side: the C epoll echo and Kestrel</h1><p><code>")
            .Append(Encode(report.Provenance.Command)).Append("</code></p><p>")
            .Append(Encode($"{report.Provenance.Machine}; commit {report.Provenance.Commit}; {RunConditions.LoadText(report.Provenance.LoadAtStart)}; {RunConditions.OtherCpuText(report.Provenance)}"))
            .Append("</p><p>")
            .Append(Encode(report.Conditions)).Append("</p>");
        foreach (var table in tables)
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
                        _ => "<td>",
                    }).Append(Encode(cell)).Append("</td>");
                }

                html.Append("</tr>");
            }

            html.Append("</table>");
        }

        html.Append("</body></html>\n");
        File.WriteAllText(path, html.ToString());
    }

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
