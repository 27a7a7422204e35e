namespace Berth.Cli.Compare;

/// <summary>One table of the comparison, cells already formatted, rendered the same way on the terminal and in HTML.</summary>
internal sealed record CompareTable(string Title, string[] Columns, string[][] Rows);
