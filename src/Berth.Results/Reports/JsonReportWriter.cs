using Berth.Results;

namespace Berth.Results.Reports;

/// <summary>
/// Writes a report as a berth-result/1 file (docs/RESULTS.md): its provenance and one table per report table, with
/// the report's note under each. A column holding repeated values becomes a range column in the column's format.
/// </summary>
internal static class JsonReportWriter
{
    public static void Write(string path, Report report) => ResultFileWriter.Write(path, ToResultFile(report));

    public static ResultFile ToResultFile(Report report) =>
        new(report.Provenance, [.. report.Tables.Select(table => ToResultTable(table, report.Note))]);

    private static ResultTable ToResultTable(ReportTable table, string note)
    {
        var columns = table.Columns
            .Select((column, i) => new ResultColumn(
                Name(column),
                table.Rows.Any(row => row[i] is Spread { IsSingle: false }) ? CellFormat.Range : column.Format))
            .ToArray();
        var rows = table.Rows
            .Select(row => (IReadOnlyList<object?>)[.. row.Select((cell, i) => Cell(cell, table.Columns[i].Format, columns[i].Format))])
            .ToArray();
        return new ResultTable(table.Id, table.Title, columns, rows, note.Length > 0 ? [note] : []);
    }

    // The terminal's titles carry the unit ("p99 µs") because its cells are bare numbers; a result file's cells print
    // their unit themselves, so the title drops it.
    private static string Name(ReportColumn column) => column.Format switch
    {
        CellFormat.Us or CellFormat.Ns or CellFormat.Ms => column.Title.Replace(" µs", "", StringComparison.Ordinal).Replace(" ns", "", StringComparison.Ordinal).Replace(" ms", "", StringComparison.Ordinal),
        CellFormat.Bytes => column.Title.Replace(" B/msg", " per msg", StringComparison.Ordinal),
        _ => column.Title,
    };

    private static object? Cell(object cell, CellFormat unit, CellFormat format) => cell switch
    {
        Spread spread when double.IsNaN(spread.Median) => null,
        Spread spread when format == CellFormat.Range => new ResultRange(spread.Min, spread.Median, spread.Max, unit),
        Spread spread => spread.Median,
        int value => (double)value,
        long value => (double)value,
        double value when double.IsNaN(value) => null,
        double value => value,
        // The tables print "-" where a value was not measured; a result file says null.
        "-" when format is not (CellFormat.Text or CellFormat.Verdict) => null,
        string text => text,
        _ => throw new InvalidDataException($"a {format.Name()} column cannot hold a {cell.GetType().Name}"),
    };
}
