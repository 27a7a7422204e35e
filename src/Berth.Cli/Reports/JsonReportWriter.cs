using System.Text.Encodings.Web;
using System.Text.Json;

namespace Berth.Cli.Reports;

/// <summary>
/// Writes a report's tables as a JSON array. Each table has <c>title</c>, <c>command</c>, <c>machine</c>, <c>date</c>,
/// <c>loadAverage</c>, <c>columns</c> and <c>rows</c> (the cells as printed, medians for repeated values, as the
/// report tooling in bench/ reads them), and <c>results</c>: one object per row whose fields are named by the columns'
/// keys, a repeated value as <c>{"median", "min", "max"}</c>. Characters such as µ are written as they are.
/// </summary>
internal static class JsonReportWriter
{
    public static void Write(string path, Report report)
    {
        using var stream = File.Create(path);
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping });
        json.WriteStartArray();
        foreach (var table in report.Tables)
        {
            json.WriteStartObject();
            json.WriteString("title", table.Title);
            json.WriteString("command", report.Command);
            json.WriteString("machine", report.Machine.Description);
            json.WriteString("date", report.Machine.Taken);
            if (report.Machine.LoadAverage is { } load)
            {
                json.WriteNumber("loadAverage", load);
            }

            json.WriteStartArray("columns");
            foreach (var column in table.Columns)
            {
                json.WriteStringValue(column.Title);
            }

            json.WriteEndArray();
            json.WriteStartArray("rows");
            foreach (var row in table.Rows)
            {
                json.WriteStartArray();
                foreach (var cell in row)
                {
                    WriteValue(json, cell is Spread spread ? spread.Median : cell);
                }

                json.WriteEndArray();
            }

            json.WriteEndArray();
            json.WriteStartArray("results");
            foreach (var row in table.Rows)
            {
                json.WriteStartObject();
                for (var i = 0; i < row.Length; i++)
                {
                    json.WritePropertyName(table.Columns[i].Key);
                    WriteValue(json, row[i]);
                }

                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        json.WriteEndArray();
    }

    private static void WriteValue(Utf8JsonWriter json, object cell)
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
            case Spread spread:
                json.WriteStartObject();
                json.WriteNumber("median", Math.Round(spread.Median, 3));
                json.WriteNumber("min", Math.Round(spread.Min, 3));
                json.WriteNumber("max", Math.Round(spread.Max, 3));
                json.WriteEndObject();
                break;
            default:
                json.WriteStringValue(cell.ToString());
                break;
        }
    }
}
