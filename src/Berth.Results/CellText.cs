using System.Globalization;

namespace Berth.Results;

/// <summary>Prints a cell as its column's format says (the formats are defined in docs/RESULTS.md).</summary>
internal static class CellText
{
    /// <summary>What a cell that was not measured prints as.</summary>
    public const string Missing = "–";

    public static string Format(object? cell, CellFormat format) => cell switch
    {
        null => Missing,
        string text => text,
        ResultRange range => string.Create(
            CultureInfo.InvariantCulture,
            $"{Number(range.Median, range.Unit)} ({Number(range.Min, range.Unit)}–{Number(range.Max, range.Unit)})"),
        double value => Number(value, format),
        _ => throw new ArgumentException($"a cell cannot hold a {cell.GetType().Name}"),
    };

    public static string Number(double value, CellFormat format)
    {
        if (!double.IsFinite(value))
        {
            return Missing;
        }

        return format switch
        {
            CellFormat.Count => Count(value),
            CellFormat.Int => value.ToString("#,0", CultureInfo.InvariantCulture),
            CellFormat.Ratio => value.ToString("0.00", CultureInfo.InvariantCulture) + "x",
            CellFormat.Percent => Significant(value * 100) + "%",
            CellFormat.Ns => Significant(value) + " ns",
            CellFormat.Us => Significant(value) + " µs",
            CellFormat.Ms => Significant(value) + " ms",
            CellFormat.Bytes => Bytes(value),
            _ => Significant(value),
        };
    }

    private static string Count(double value) => Math.Abs(value) switch
    {
        >= 1e9 => (value / 1e9).ToString("0.00", CultureInfo.InvariantCulture) + "G",
        >= 1e6 => (value / 1e6).ToString("0.00", CultureInfo.InvariantCulture) + "M",
        >= 1e3 => (value / 1e3).ToString("0", CultureInfo.InvariantCulture) + "K",
        _ => value.ToString("0", CultureInfo.InvariantCulture),
    };

    private static string Bytes(double value) => Math.Abs(value) switch
    {
        >= 1 << 30 => Significant(value / (1 << 30)) + " GiB",
        >= 1 << 20 => Significant(value / (1 << 20)) + " MiB",
        >= 1 << 10 => Significant(value / (1 << 10)) + " KiB",
        // Whole bytes as they are; a fraction (bytes per message averaged over a run) keeps its significant digits.
        _ => (value == Math.Floor(value) ? value.ToString("0", CultureInfo.InvariantCulture) : Significant(value)) + " B",
    };

    // Three significant digits from 1 up, whole numbers from 100 up, three decimals below 1: the precision every figure
    // here carries, without rounding a small fraction such as 0.002 B per message to nothing.
    private static string Significant(double value) => Math.Abs(value) switch
    {
        >= 100 => value.ToString("#,0", CultureInfo.InvariantCulture),
        >= 10 => value.ToString("0.0", CultureInfo.InvariantCulture),
        >= 1 => value.ToString("0.00", CultureInfo.InvariantCulture),
        _ => value.ToString("0.###", CultureInfo.InvariantCulture),
    };
}
