namespace Berth.Results.Reports;

/// <summary>Prints a table with aligned columns for the terminal.</summary>
internal static class TextTableWriter
{
    public static void Write(TextWriter output, ReportTable table)
    {
        var cells = table.Rows.Select(row => row.Select(CellText.Format).ToArray()).ToArray();
        var widths = table.Columns.Select((column, i) => Math.Max(column.Title.Length, cells.Select(row => row[i].Length).DefaultIfEmpty(0).Max())).ToArray();
        output.WriteLine(table.Title);
        output.WriteLine(Line(table.Columns.Select(c => c.Title), widths));
        output.WriteLine(string.Join("  ", widths.Select(w => new string('-', w))));
        foreach (var row in cells)
        {
            output.WriteLine(Line(row, widths));
        }

        output.WriteLine();
    }

    private static string Line(IEnumerable<string> cells, int[] widths) =>
        string.Join("  ", cells.Select((cell, i) => i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i]))).TrimEnd();
}
