using System.Text.Json;

namespace Berth.Results;

/// <summary>
/// Reads a berth-result/1 file and refuses one that breaks the format: a missing provenance field, an unknown cell
/// format, a row whose length differs from the columns', or a cell its column's format cannot print.
/// </summary>
internal static class ResultFileReader
{
    private static readonly string[] ProvenanceFields =
        ["date", "commit", "dirty", "machine", "loadAtStart", "otherCpuShare", "quiet", "command", "source"];

    public static ResultFile Read(string path)
    {
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllBytes(path));
            return Read(document.RootElement);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException or KeyNotFoundException)
        {
            throw new InvalidDataException($"{path}: {e.Message}", e);
        }
        catch (InvalidDataException e)
        {
            throw new InvalidDataException($"{path}: {e.Message}", e);
        }
    }

    private static ResultFile Read(JsonElement root)
    {
        var schema = root.GetProperty("schema").GetString();
        if (schema != ResultFile.Schema)
        {
            throw new InvalidDataException($"schema is \"{schema}\", not \"{ResultFile.Schema}\"");
        }

        var tables = new List<ResultTable>();
        foreach (var table in root.GetProperty("tables").EnumerateObject())
        {
            tables.Add(ReadTable(table.Name, table.Value));
        }

        return new ResultFile(ReadProvenance(root.GetProperty("provenance")), tables);
    }

    private static Provenance ReadProvenance(JsonElement provenance)
    {
        var missing = ProvenanceFields.Where(name => !provenance.TryGetProperty(name, out _)).ToArray();
        if (missing.Length > 0)
        {
            throw new InvalidDataException($"provenance lacks {string.Join(", ", missing)}");
        }

        var load = provenance.GetProperty("loadAtStart");
        var share = provenance.GetProperty("otherCpuShare");
        var dirty = provenance.GetProperty("dirty");
        var source = provenance.GetProperty("source");
        var quiet = provenance.GetProperty("quiet").GetBoolean();
        double? otherCpuShare = share.ValueKind == JsonValueKind.Null ? null : share.GetDouble();
        if (quiet != Provenance.IsQuiet(otherCpuShare))
        {
            throw new InvalidDataException(
                $"provenance says quiet is {(quiet ? "true" : "false")}, but otherCpuShare is {share} (quiet means below {Provenance.QuietOtherCpuShare})");
        }

        return new Provenance(
            provenance.GetProperty("date").GetDateTimeOffset(),
            provenance.GetProperty("commit").GetString() ?? throw new InvalidDataException("provenance commit is null"),
            dirty.ValueKind == JsonValueKind.Null ? null : dirty.GetBoolean(),
            provenance.GetProperty("machine").GetString() ?? throw new InvalidDataException("provenance machine is null"),
            load.ValueKind == JsonValueKind.Null ? null : load.EnumerateArray().Select(v => v.GetDouble()).ToArray(),
            otherCpuShare,
            quiet,
            provenance.GetProperty("command").GetString() ?? throw new InvalidDataException("provenance command is null"),
            source.ValueKind == JsonValueKind.Null ? null : source.GetString());
    }

    private static ResultTable ReadTable(string id, JsonElement table)
    {
        var columns = table.GetProperty("columns").EnumerateArray()
            .Select(c => new ResultColumn(
                c.GetProperty("name").GetString() ?? throw new InvalidDataException($"table {id}: a column has no name"),
                CellFormatNames.Parse(c.GetProperty("format").GetString() ?? "")))
            .ToArray();
        var rows = new List<IReadOnlyList<object?>>();
        foreach (var row in table.GetProperty("rows").EnumerateArray())
        {
            var cells = row.EnumerateArray().ToArray();
            if (cells.Length != columns.Length)
            {
                throw new InvalidDataException($"table {id}: row {rows.Count + 1} has {cells.Length} cells for {columns.Length} columns");
            }

            rows.Add(cells.Select((cell, i) => ReadCell(id, columns[i], cell)).ToArray());
        }

        var notes = table.TryGetProperty("notes", out var noteArray)
            ? noteArray.EnumerateArray().Select(n => n.GetString() ?? "").ToArray()
            : [];
        var title = table.TryGetProperty("title", out var titleText) ? titleText.GetString() : null;
        return new ResultTable(id, title, columns, rows, notes);
    }

    private static object? ReadCell(string table, ResultColumn column, JsonElement cell)
    {
        object? value = cell.ValueKind switch
        {
            JsonValueKind.Null => null,
            JsonValueKind.String => cell.GetString(),
            JsonValueKind.Number => cell.GetDouble(),
            JsonValueKind.Object => new ResultRange(
                cell.GetProperty("min").GetDouble(),
                cell.GetProperty("median").GetDouble(),
                cell.GetProperty("max").GetDouble(),
                CellFormatNames.Parse(cell.GetProperty("unit").GetString() ?? "")),
            _ => throw new InvalidDataException($"table {table}, column {column.Name}: a cell is {cell.ValueKind}"),
        };
        // A string fits any column: a numeric column may say why it has no number ("stalled").
        var fits = value is null or string || column.Format switch
        {
            CellFormat.Text or CellFormat.Verdict => false,
            CellFormat.Range => value is ResultRange,
            _ => value is double,
        };
        return fits
            ? value
            : throw new InvalidDataException($"table {table}, column {column.Name}: {cell} is not a {column.Format.Name()} cell");
    }
}
