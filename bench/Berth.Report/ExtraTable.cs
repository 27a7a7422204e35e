using System.Text.Json;

namespace Berth.Report;

/// <summary>
/// A table produced outside BenchmarkDotNet (the Java programs): a file holds a JSON array of these.
/// </summary>
internal sealed record ExtraTable(string Title, string? Note, string? Command, string? Machine, IReadOnlyList<string> Columns, IReadOnlyList<IReadOnlyList<string>> Rows)
{
    private static readonly JsonSerializerOptions Options = new() { PropertyNameCaseInsensitive = true, Converters = { new TableCellConverter() } };

    public static IReadOnlyList<ExtraTable> ReadFile(string path)
    {
        var tables = JsonSerializer.Deserialize<List<ExtraTable>>(File.ReadAllText(path), Options)
            ?? throw new InvalidDataException($"{path}: expected a JSON array of tables");
        foreach (var table in tables)
        {
            if (string.IsNullOrEmpty(table.Title) || table.Columns is null || table.Rows is null)
            {
                throw new InvalidDataException($"{path}: every table needs title, columns and rows");
            }
        }

        return tables;
    }

    /// <summary>The first column after the row label whose cells all read as numbers, if any.</summary>
    public int? FirstNumericColumn()
    {
        for (var column = 1; column < Columns.Count; column++)
        {
            if (Rows.Count > 0 && Rows.All(row => column < row.Count && Units.ParseLeadingNumber(row[column]) is not null))
            {
                return column;
            }
        }

        return null;
    }
}
