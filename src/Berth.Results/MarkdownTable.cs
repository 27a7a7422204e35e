using System.Text;

namespace Berth.Results;

/// <summary>A result table as a Markdown table, its title above and its notes below.</summary>
internal static class MarkdownTable
{
    public static void Render(StringBuilder output, ResultTable table)
    {
        if (table.Title is { } title)
        {
            output.Append("**").Append(title).Append("**\n\n");
        }

        output.Append('|');
        foreach (var column in table.Columns)
        {
            output.Append(' ').Append(Escape(column.Name)).Append(" |");
        }

        output.Append("\n|");
        foreach (var column in table.Columns)
        {
            output.Append(column.Format is CellFormat.Text or CellFormat.Verdict ? " --- |" : " ---: |");
        }

        output.Append('\n');
        foreach (var row in table.Rows)
        {
            output.Append('|');
            for (var i = 0; i < row.Count; i++)
            {
                output.Append(' ').Append(Escape(CellText.Format(row[i], table.Columns[i].Format))).Append(" |");
            }

            output.Append('\n');
        }

        foreach (var note in table.Notes)
        {
            output.Append('\n').Append(note).Append('\n');
        }
    }

    private static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal).Replace("\n", " ", StringComparison.Ordinal);
}
