using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Berth.Report;

/// <summary>
/// Reads a table cell written as a string or as a JSON number (the end-to-end commands write raw numbers) and
/// renders numbers for reading: whole thousands with separators, small values with up to three decimals.
/// </summary>
internal sealed class TableCellConverter : JsonConverter<string>
{
    public override string Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.TokenType switch
    {
        JsonTokenType.String => reader.GetString()!,
        JsonTokenType.Number => Format(reader.GetDouble()),
        JsonTokenType.True => "true",
        JsonTokenType.False => "false",
        JsonTokenType.Null => "",
        _ => throw new JsonException($"a table cell is a string or a number, not {reader.TokenType}"),
    };

    public override void Write(Utf8JsonWriter writer, string value, JsonSerializerOptions options) => writer.WriteStringValue(value);

    private static string Format(double value) =>
        Math.Abs(value) >= 100
            ? value.ToString("N0", CultureInfo.InvariantCulture)
            : value.ToString("0.###", CultureInfo.InvariantCulture);
}
