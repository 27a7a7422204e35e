using System.Globalization;
using System.Text.Json;

namespace Berth.Cli.Zmq;

/// <summary>One result table: printed aligned on the terminal and written as the report tooling's JSON object.</summary>
internal sealed class ReportTable(string title, string command, string machine, params string[] columns)
{
    private readonly List<string[]> _rows = [];

    public void Add(params string[] row) => _rows.Add(row);

    public void Print(TextWriter output)
    {
        var widths = columns.Select((c, i) => Math.Max(c.Length, _rows.Count == 0 ? 0 : _rows.Max(r => r[i].Length))).ToArray();
        output.WriteLine();
        output.WriteLine(title);
        output.WriteLine(string.Join("  ", columns.Select((c, i) => c.PadLeft(widths[i]))));
        foreach (var row in _rows)
        {
            output.WriteLine(string.Join("  ", row.Select((cell, i) => cell.PadLeft(widths[i]))));
        }
    }

    public void Write(Utf8JsonWriter json)
    {
        json.WriteStartObject();
        json.WriteString("title", title);
        json.WriteString("command", command);
        json.WriteString("machine", machine);
        json.WriteStartArray("columns");
        foreach (var column in columns)
        {
            json.WriteStringValue(column);
        }

        json.WriteEndArray();
        json.WriteStartArray("rows");
        foreach (var row in _rows)
        {
            json.WriteStartArray();
            foreach (var cell in row)
            {
                json.WriteStringValue(cell);
            }

            json.WriteEndArray();
        }

        json.WriteEndArray();

        // The same rows with a named field per column, numbers as numbers, for readers that want no column lookup.
        json.WriteStartArray("records");
        foreach (var row in _rows)
        {
            json.WriteStartObject();
            for (var i = 0; i < columns.Length; i++)
            {
                if (double.TryParse(row[i], NumberStyles.Float | NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out var number))
                {
                    json.WriteNumber(columns[i], number);
                }
                else
                {
                    json.WriteString(columns[i], row[i]);
                }
            }

            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }
}
