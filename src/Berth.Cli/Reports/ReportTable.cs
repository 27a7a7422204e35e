namespace Berth.Cli.Reports;

/// <summary>
/// One measured table as the report tooling reads it: what was measured, the command that measured it, the machine,
/// and the rows. Cells are strings or numbers.
/// </summary>
internal sealed record ReportTable(string Title, string Command, string Machine, string[] Columns, object[][] Rows);
