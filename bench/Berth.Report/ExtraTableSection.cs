using System.Globalization;
using System.Text;

namespace Berth.Report;

/// <summary>A table from a JSON table file as a report section, charted by its first numeric column.</summary>
internal sealed class ExtraTableSection(ExtraTable table, string fileStem)
{
    public string ChartFileName => fileStem + ".svg";

    public string Markdown(string headingPrefix, string chartLink)
    {
        var numeric = Enumerable.Range(1, Math.Max(0, table.Columns.Count - 1))
            .Where(c => table.Rows.All(r => c < r.Count && Units.ParseLeadingNumber(r[c]) is not null))
            .ToHashSet();
        var markdown = new MarkdownTable(table.Columns, numeric);
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

        text.Append(markdown).AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"*Machine: {table.Machine ?? "not recorded"}. Command: `{table.Command ?? "not recorded"}`.*").AppendLine();
        if (Chart() is not null)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"![{table.Title}]({chartLink}{ChartFileName})").AppendLine();
        }

        return text.ToString();
    }

    public ChartData? Chart()
    {
        if (table.FirstNumericColumn() is not { } column)
        {
            return null;
        }

        var bars = table.Rows.Select(r => new ChartBar(r[0], Units.ParseLeadingNumber(r[column]) ?? double.NaN, false)).ToList();
        return new ChartData(table.Title, [new ChartGroup(table.Columns[column], bars)], Units.Number, table.Columns[column]);
    }
}
