namespace Berth.Results;

/// <summary>One column of a result table.</summary>
internal sealed record ResultColumn(string Name, CellFormat Format);

/// <summary>
/// One table of a result file. A cell is a <see cref="string"/>, a <see cref="double"/>, a <see cref="ResultRange"/>
/// or null (not measured), as its column's format expects.
/// </summary>
internal sealed record ResultTable(
    string Id,
    string? Title,
    IReadOnlyList<ResultColumn> Columns,
    IReadOnlyList<IReadOnlyList<object?>> Rows,
    IReadOnlyList<string> Notes);
