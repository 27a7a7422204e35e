using System.Globalization;

namespace Berth.Results.Reports;

/// <summary>How a cell reads on the terminal and in HTML: large numbers grouped, small ones with two decimals.</summary>
internal static class CellText
{
    public static string Format(object cell) => cell switch
    {
        Spread spread when spread.IsSingle => Number(spread.Median),
        Spread spread => $"{Number(spread.Median)} ({Number(spread.Min)}–{Number(spread.Max)})",
        double value => Number(value),
        long value => value.ToString("N0", CultureInfo.InvariantCulture),
        int value => value.ToString(CultureInfo.InvariantCulture),
        _ => cell.ToString() ?? string.Empty,
    };

    public static string Number(double value) => Math.Abs(value) switch
    {
        >= 100 => value.ToString("N0", CultureInfo.InvariantCulture),
        >= 1 => value.ToString("0.##", CultureInfo.InvariantCulture),
        _ => value.ToString("0.###", CultureInfo.InvariantCulture),
    };
}
