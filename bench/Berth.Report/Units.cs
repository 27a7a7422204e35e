using System.Globalization;

namespace Berth.Report;

/// <summary>How the report prints times, sizes and ratios: invariant culture, units scaled to the value.</summary>
internal static class Units
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>
    /// Below <see cref="Unresolvable"/> a mean is indistinguishable from an empty method after
    /// BenchmarkDotNet subtracts its own overhead, so it is printed as "≈ 0".
    /// </summary>
    public const double Unresolvable = 0.3;

    public static string Time(double nanoseconds) => nanoseconds switch
    {
        double.NaN => "n/a",
        < Unresolvable => "≈ 0 (" + nanoseconds.ToString("0.000", Invariant) + " ns)",
        < 10 => nanoseconds.ToString("0.000", Invariant) + " ns",
        < 1_000 => nanoseconds.ToString("0.0", Invariant) + " ns",
        < 1_000_000 => (nanoseconds / 1_000).ToString("0.00", Invariant) + " µs",
        _ => (nanoseconds / 1_000_000).ToString("0.00", Invariant) + " ms",
    };

    /// <summary>An axis tick: the same units as <see cref="Time"/> without trailing zeros ("10 µs").</summary>
    public static string TimeTick(double nanoseconds) => nanoseconds switch
    {
        < 1_000 => nanoseconds.ToString("0.###", Invariant) + " ns",
        < 1_000_000 => (nanoseconds / 1_000).ToString("0.###", Invariant) + " µs",
        _ => (nanoseconds / 1_000_000).ToString("0.###", Invariant) + " ms",
    };

    /// <summary>A spread (error, deviation): printed plainly, since a small spread is not an unresolvable mean.</summary>
    public static string Spread(double? nanoseconds) => nanoseconds switch
    {
        null or double.NaN => "n/a",
        < 1_000 => nanoseconds.Value.ToString("0.000", Invariant) + " ns",
        _ => Time(nanoseconds.Value),
    };

    public static string Bytes(long? bytes) => bytes switch
    {
        null => "n/a",
        0 => "0 B",
        _ => bytes.Value.ToString("#,0", Invariant) + " B",
    };

    public static string Ratio(double? ratio) => ratio switch
    {
        null => "",
        double.NaN or double.PositiveInfinity => "n/a",
        < 0.01 => ratio.Value.ToString("0.0000", Invariant),
        _ => ratio.Value.ToString("0.00", Invariant),
    };

    public static string Number(double value) => value.ToString("#,0.###", Invariant);

    /// <summary>Byte counts in parameters read as sizes: 65536 becomes "64 KB".</summary>
    public static string SizeParameter(string value) =>
        long.TryParse(value, NumberStyles.Integer, Invariant, out var bytes) && bytes >= 1024 && bytes % 1024 == 0
            ? bytes % (1024 * 1024) == 0 ? $"{bytes / (1024 * 1024)} MB" : $"{bytes / 1024} KB"
            : long.TryParse(value, NumberStyles.Integer, Invariant, out _) ? value + " B" : value;

    /// <summary>Parameters whose name ends in "Size" are byte counts; others print as they are.</summary>
    public static string SizeParameterIf(string name, string value) =>
        name.EndsWith("Size", StringComparison.Ordinal) ? SizeParameter(value) : value;

    /// <summary>Reads a table cell such as "1,234", "12.5 ns" or "3.2 µs" as a number of its own unit.</summary>
    public static double? ParseLeadingNumber(string cell)
    {
        var digits = new string(cell.TrimStart().TakeWhile(ch => char.IsDigit(ch) || ch is '.' or ',' or '-').ToArray()).Replace(",", "", StringComparison.Ordinal);
        return double.TryParse(digits, NumberStyles.Float, Invariant, out var value) ? value : null;
    }
}
