using Berth.Results;

namespace Berth.Report;

/// <summary>
/// The tables of one report run, gathered while the document is laid out: each is written to the run's result file and
/// stands in the document as a generated block naming it.
/// </summary>
internal sealed class ReportData(string dataPath)
{
    private readonly List<ResultTable> _tables = [];

    public IReadOnlyList<ResultTable> Tables => _tables;

    /// <summary>Keeps <paramref name="table"/> and returns the generated block that shows it.</summary>
    public string Block(ResultTable table)
    {
        if (_tables.Any(t => t.Id == table.Id))
        {
            throw new InvalidDataException($"two report tables are both named {table.Id}");
        }

        _tables.Add(table);
        return $"<!-- generated: {dataPath}#{table.Id} -->\n{GeneratedBlocks.EndMarker}\n";
    }
}
