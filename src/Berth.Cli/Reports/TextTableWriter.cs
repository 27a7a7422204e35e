namespace Berth.Cli.Reports;

/// <summary>Prints a table with aligned columns for the terminal.</summary>
internal static class TextTableWriter
{
    public static void Write(TextWriter output, ReportTable table)
    {
        var cells = table.Rows.Select(row => row.Select(HtmlReportWriter.Format).ToArray()).ToArray();
        var widths = table.Columns.Select((column, i) => Math.Max(column.Length, cells.Select(row => row[i].Length).DefaultIfEmpty(0).Max())).ToArray();
        output.WriteLine(table.Title);
        output.WriteLine(string.Join("  ", table.Columns.Select((column, i) => i == 0 ? column.PadRight(widths[i]) : column.PadLeft(widths[i]))));
        output.WriteLine(string.Join("  ", widths.Select(w => new string('-', w))));
        foreach (var row in cells)
        {
            output.WriteLine(string.Join("  ", row.Select((cell, i) => i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i]))));
        }

        output.WriteLine();
    }
}
