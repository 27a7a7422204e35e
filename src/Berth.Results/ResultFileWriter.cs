using System.Text.Encodings.Web;
using System.Text.Json;

namespace Berth.Results;

/// <summary>Writes a <see cref="ResultFile"/> in the berth-result/1 format of docs/RESULTS.md.</summary>
internal static class ResultFileWriter
{
    private static readonly JsonWriterOptions Options = new() { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static void Write(string path, ResultFile file)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        using (var stream = File.Create(path))
        {
            Write(stream, file);
        }

        File.AppendAllText(path, "\n");
    }

    public static void Write(Stream stream, ResultFile file)
    {
        using var json = new Utf8JsonWriter(stream, Options);
        json.WriteStartObject();
        json.WriteString("schema", ResultFile.Schema);
        WriteProvenance(json, file.Provenance);
        json.WriteStartObject("tables");
        foreach (var table in file.Tables)
        {
            json.WriteStartObject(table.Id);
            if (table.Title is not null)
            {
                json.WriteString("title", table.Title);
            }

            json.WriteStartArray("columns");
            foreach (var column in table.Columns)
            {
                json.WriteStartObject();
                json.WriteString("name", column.Name);
                json.WriteString("format", column.Format.Name());
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteStartArray("rows");
            foreach (var row in table.Rows)
            {
                if (row.Count != table.Columns.Count)
                {
                    throw new ArgumentException($"table {table.Id}: a row has {row.Count} cells for {table.Columns.Count} columns");
                }

                json.WriteStartArray();
                foreach (var cell in row)
                {
                    WriteCell(json, cell);
                }

                json.WriteEndArray();
            }

            json.WriteEndArray();
            if (table.Notes.Count > 0)
            {
                json.WriteStartArray("notes");
                foreach (var note in table.Notes)
                {
                    json.WriteStringValue(note);
                }

                json.WriteEndArray();
            }

            json.WriteEndObject();
        }

        json.WriteEndObject();
        json.WriteEndObject();
    }

    private static void WriteProvenance(Utf8JsonWriter json, Provenance provenance)
    {
        json.WriteStartObject("provenance");
        json.WriteString("date", provenance.Date.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture));
        json.WriteString("commit", provenance.Commit);
        WriteNullable(json, "dirty", provenance.Dirty);
        json.WriteString("machine", provenance.Machine);
        if (provenance.LoadAtStart is { } load)
        {
            json.WriteStartArray("loadAtStart");
            foreach (var value in load)
            {
                json.WriteNumberValue(value);
            }

            json.WriteEndArray();
        }
        else
        {
            json.WriteNull("loadAtStart");
        }

        if (provenance.OtherCpuShare is { } share)
        {
            json.WriteNumber("otherCpuShare", Math.Round(share, 4));
        }
        else
        {
            json.WriteNull("otherCpuShare");
        }

        json.WriteBoolean("quiet", provenance.Quiet);
        json.WriteString("command", provenance.Command);
        json.WriteString("source", provenance.Source);
        json.WriteEndObject();
    }

    private static void WriteNullable(Utf8JsonWriter json, string name, bool? value)
    {
        if (value is { } flag)
        {
            json.WriteBoolean(name, flag);
        }
        else
        {
            json.WriteNull(name);
        }
    }

    private static void WriteCell(Utf8JsonWriter json, object? cell)
    {
        switch (cell)
        {
            case null:
                json.WriteNullValue();
                break;
            case string text:
                json.WriteStringValue(text);
                break;
            case double value:
                WriteNumber(json, value);
                break;
            case ResultRange range:
                json.WriteStartObject();
                json.WritePropertyName("min");
                WriteNumber(json, range.Min);
                json.WritePropertyName("median");
                WriteNumber(json, range.Median);
                json.WritePropertyName("max");
                WriteNumber(json, range.Max);
                json.WriteString("unit", range.Unit.Name());
                json.WriteEndObject();
                break;
            default:
                throw new ArgumentException($"a cell cannot hold a {cell.GetType().Name}");
        }
    }

    // Four significant digits beyond the integer part are more than any figure here is precise to; NaN and infinity
    // have no JSON form and mean "not measured".
    private static void WriteNumber(Utf8JsonWriter json, double value)
    {
        if (!double.IsFinite(value))
        {
            json.WriteNullValue();
        }
        else
        {
            json.WriteNumberValue(Math.Round(value, 4));
        }
    }
}
