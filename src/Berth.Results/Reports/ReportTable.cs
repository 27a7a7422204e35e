namespace Berth.Results.Reports;

/// <summary>
/// One measured table: its id in the result file, what was measured and the rows. Cells are strings, whole numbers,
/// numbers or <see cref="Spread"/>s (a value over repeated runs).
/// </summary>
internal sealed record ReportTable(string Id, string Title, IReadOnlyList<ReportColumn> Columns, IReadOnlyList<object[]> Rows);
