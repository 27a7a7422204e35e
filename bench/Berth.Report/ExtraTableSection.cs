using System.Globalization;
using System.Text;

namespace Berth.Report;

/// <summary>
/// A table from a JSON table file as a report section. End-to-end tables mix units across columns
/// (msg/s, MB/s, latency), so they are charted by their first numeric column only; tables whose
/// numeric columns share one unit (the Java tables, one column per size) chart every column.
/// </summary>
internal sealed class ExtraTableSection(ExtraTable table, string fileStem, bool columnsShareUnit)
{
    public string ChartFileName => fileStem + ".svg";

    public string Markdown(string headingPrefix, string chartLink, ReportData data)
    {
        var markdown = new MarkdownTable(table.Columns);
        foreach (var row in table.Rows)
        {
            markdown.Add(row);
        }

        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"{headingPrefix} {table.Title}").AppendLine();
        if (!string.IsNullOrEmpty(table.Note))
        {
            text.AppendLine(table.Note).AppendLine();
        }

        string[] note = [$"Machine: {table.Machine ?? "not recorded"}. Command: `{table.Command ?? "not recorded"}`."];
        text.Append(data.Block(markdown.ToResult(fileStem, note))).AppendLine();
        if (Chart() is not null)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"![{table.Title}]({chartLink}{ChartFileName})").AppendLine();
        }

        return text.ToString();
    }

    private HashSet<int> NumericColumns() =>
        Enumerable.Range(1, Math.Max(0, table.Columns.Count - 1))
            .Where(c => table.Rows.All(r => c < r.Count && Units.ParseLeadingNumber(r[c]) is not null))
            .ToHashSet();

    public ChartData? Chart()
    {
        if (table.FirstNumericColumn() is not { } first)
        {
            return null;
        }

        var columns = columnsShareUnit ? NumericColumns().Order().ToList() : [first];
        var groups = columns
            .Select(c => new ChartGroup(table.Columns[c], table.Rows.Select(r => new ChartBar(r[0], Units.ParseLeadingNumber(r[c]) ?? double.NaN, false)).ToList()))
            .ToList();
        return new ChartData(table.Title, groups, Units.Number, Units.Number, columnsShareUnit ? table.Title : table.Columns[first]);
    }
}
