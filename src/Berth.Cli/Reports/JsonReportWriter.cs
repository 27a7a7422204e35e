using System.Text.Encodings.Web;
using System.Text.Json;

namespace Berth.Cli.Reports;

/// <summary>
/// Writes tables as <c>[{"title", "command", "machine", "columns": [...], "rows": [[...], ...]}]</c>, with characters
/// such as µ written as they are so the file reads well; it is data for the report tooling, never embedded in HTML.
/// </summary>
internal static class JsonReportWriter
{
    public static void Write(string path, IReadOnlyList<ReportTable> tables)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        using var stream = File.Create(path);
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping });
        json.WriteStartArray();
        foreach (var table in tables)
        {
            json.WriteStartObject();
            json.WriteString("title", table.Title);
            json.WriteString("command", table.Command);
            json.WriteString("machine", table.Machine);
            json.WriteStartArray("columns");
            foreach (var column in table.Columns)
            {
                json.WriteStringValue(column);
            }

            json.WriteEndArray();
            json.WriteStartArray("rows");
            foreach (var row in table.Rows)
            {
                json.WriteStartArray();
                foreach (var cell in row)
                {
                    WriteCell(json, cell);
                }

                json.WriteEndArray();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        json.WriteEndArray();
    }

    private static void WriteCell(Utf8JsonWriter json, object cell)
    {
        switch (cell)
        {
            case int value:
                json.WriteNumberValue(value);
                break;
            case long value:
                json.WriteNumberValue(value);
                break;
            case double value:
                json.WriteNumberValue(Math.Round(value, 3));
                break;
            default:
                json.WriteStringValue(cell.ToString());
                break;
        }
    }
}
