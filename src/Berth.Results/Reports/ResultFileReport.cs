namespace Berth.Results.Reports;

/// <summary>
/// A berth-result/1 file as a <see cref="Report"/>, so a producer that writes only the file (a shell script, or a
/// tool other than the berth command) gets the same HTML page as <c>berth bench</c> does.
/// </summary>
internal static class ResultFileReport
{
    public static Report From(ResultFile file, string title) => new(
        title,
        string.Join(" ", file.Tables.SelectMany(table => table.Notes).Distinct()),
        file.Provenance,
        [.. file.Tables.Select(ToReportTable)],
        []);

    private static ReportTable ToReportTable(ResultTable table) => new(
        table.Id,
        table.Title ?? table.Id,
        [.. table.Columns.Select(column => new ReportColumn(column.Name, column.Name, column.Format))],
        [.. table.Rows.Select(row => row.Select((cell, i) => Cell(cell, table.Columns[i].Format)).ToArray())]);

    // A range keeps its runs, so the page shows their spread and warns of a wide one; a single value prints in its
    // column's format (a ratio with its "x", a share as a percentage).
    private static object Cell(object? cell, CellFormat format) => cell switch
    {
        ResultRange range => new Spread(range.Median, range.Min, range.Max),
        _ => Berth.Results.CellText.Format(cell, format),
    };
}
