namespace Berth.Results;

/// <summary>How a column's cells are printed; docs/RESULTS.md defines each one.</summary>
internal enum CellFormat
{
    Text,
    Count,
    Int,
    Ratio,
    Percent,
    Ns,
    Us,
    Ms,
    Bytes,
    Range,
    Verdict,
}

/// <summary>The names the result files use for <see cref="CellFormat"/>.</summary>
internal static class CellFormatNames
{
    public static string Name(this CellFormat format) => format.ToString().ToLowerInvariant();

    public static CellFormat Parse(string name) =>
        Enum.TryParse<CellFormat>(name, ignoreCase: true, out var format) && name == format.Name()
            ? format
            : throw new InvalidDataException($"unknown cell format \"{name}\"");
}
