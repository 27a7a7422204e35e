using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>Prints the comparison tables with aligned columns for the terminal.</summary>
internal static class CompareTextWriter
{
    public static void Write(TextWriter output, CompareReport report, IReadOnlyList<CompareTable> tables)
    {
        output.WriteLine(report.Provenance.Command);
        output.WriteLine($"{report.Provenance.Machine}; {RunConditions.LoadText(report.Provenance.LoadAtStart)}; {RunConditions.OtherCpuText(report.Provenance)}");
        output.WriteLine(report.Conditions);
        output.WriteLine();
        foreach (var table in tables)
        {
            var widths = table.Columns
                .Select((column, i) => Math.Max(column.Length, table.Rows.Select(row => row[i].Length).DefaultIfEmpty(0).Max()))
                .ToArray();
            output.WriteLine(table.Title);
            output.WriteLine(Line(table.Columns, widths));
            output.WriteLine(string.Join("  ", widths.Select(w => new string('-', w))));
            foreach (var row in table.Rows)
            {
                output.WriteLine(Line(row, widths));
            }

            output.WriteLine();
        }
    }

    private static string Line(string[] cells, int[] widths) =>
        string.Join("  ", cells.Select((cell, i) => i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i]))).TrimEnd();
}
