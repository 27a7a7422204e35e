using System.Globalization;
using Berth.Results.Reports;

namespace Berth.Cli.Zmq;

/// <summary>
/// One implementation's value per interleaved round of <c>berth zmq bench</c>; a comparison with an anchor is the median
/// of the per-round ratios, so that a round where the whole machine was slower moves both sides together.
/// </summary>
internal sealed class RoundSeries(string name)
{
    private readonly List<double> _values = [];

    public string Name { get; } = name;

    public IReadOnlyList<double> Values => _values;

    public void Add(double value) => _values.Add(value);

    /// <summary>The runs as a median with its min-max, or "stalled" when any run stalled (NaN).</summary>
    public object Cell() => _values.Any(double.IsNaN) ? "stalled" : Spread.Of(_values);

    /// <summary>The median; NaN when any run stalled.</summary>
    public double Median() => _values.Any(double.IsNaN) ? double.NaN : Spread.Of(_values).Median;

    /// <summary>The median of this series over <paramref name="anchor"/> round by round, or "-" when either is missing or stalled.</summary>
    public object RatioTo(RoundSeries? anchor) => Ratios(anchor) is { } ratios ? Spread.Of(ratios).Median : "-";

    /// <summary>Every round's ratio to <paramref name="anchor"/>, first to last, as text; "-" when it cannot be formed.</summary>
    public string RoundsText(RoundSeries? anchor) =>
        Ratios(anchor) is { } ratios ? string.Join(" ", ratios.Select(r => r.ToString("0.00", CultureInfo.InvariantCulture))) : "-";

    private double[]? Ratios(RoundSeries? anchor)
    {
        if (anchor is null || anchor._values.Count != _values.Count || _values.Count == 0
            || _values.Any(double.IsNaN) || anchor._values.Any(double.IsNaN))
        {
            return null;
        }

        return [.. _values.Select((value, round) => value / anchor._values[round])];
    }
}
