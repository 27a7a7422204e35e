using Berth.Results;

namespace Berth.Report;

/// <summary>
/// One table of the report, its cells as printed. It goes into the run's result file, and the report shows it through a
/// generated block, so the document and the data cannot disagree.
/// </summary>
internal sealed class MarkdownTable(IReadOnlyList<string> headers)
{
    private readonly List<IReadOnlyList<object?>> _rows = [];

    public void Add(IReadOnlyList<string> cells) => _rows.Add([.. cells]);

    public ResultTable ToResult(string id, IReadOnlyList<string> notes) =>
        new(id, null, [.. headers.Select(h => new ResultColumn(h, CellFormat.Text))], _rows, notes);
}
