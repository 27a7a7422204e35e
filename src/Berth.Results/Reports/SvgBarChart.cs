using System.Globalization;
using System.Net;
using System.Text;

namespace Berth.Results.Reports;

/// <summary>Renders a <see cref="BarChart"/> as inline SVG: no script, no font or file fetched.</summary>
internal static class SvgBarChart
{
    private const int BarHeight = 14;
    private const int GroupGap = 8;
    private const int AxisHeight = 40;
    private const int LegendHeight = 22;
    private const int LegendEntryWidth = 110;
    private static readonly string[] Colors = ["#3b6ea8", "#e08a2c", "#5a9e4b", "#a0479c", "#c44e52", "#8c8c8c", "#2a9d8f"];

    public static void Append(StringBuilder html, BarChart chart, ChartLayout layout)
    {
        var axis = Axis.For(chart, layout.PlotWidth);
        var legend = chart.Series.Count > 1;
        var groupHeight = (chart.Series.Count * BarHeight) + GroupGap;
        var top = legend ? LegendHeight : 6;
        var plotBottom = top + (chart.Labels.Count * groupHeight);
        var height = plotBottom + AxisHeight;
        var left = layout.LabelWidth;
        html.Append(Invariant($"<svg width=\"{layout.Width}\" height=\"{height}\" font-size=\"12\" role=\"img\">"));

        for (var s = 0; legend && s < chart.Series.Count; s++)
        {
            var x = left + (s * LegendEntryWidth);
            html.Append(Invariant($"<rect x=\"{x}\" y=\"4\" width=\"12\" height=\"12\" fill=\"{Colors[s % Colors.Length]}\"/>"))
                .Append(Invariant($"<text x=\"{x + 16}\" y=\"14\">{Encode(chart.Series[s].Name)}</text>"));
        }

        foreach (var (value, text) in axis.Ticks())
        {
            var x = left + axis.Position(value);
            html.Append(Invariant($"<line x1=\"{x:F1}\" y1=\"{top}\" x2=\"{x:F1}\" y2=\"{plotBottom}\" stroke=\"#ddd\"/>"))
                .Append(Invariant($"<text x=\"{x:F1}\" y=\"{plotBottom + 14}\" text-anchor=\"middle\" fill=\"#555\">{Encode(text)}</text>"));
        }

        html.Append(Invariant($"<text x=\"{left + (layout.PlotWidth / 2)}\" y=\"{plotBottom + 32}\" text-anchor=\"middle\" fill=\"#555\">{Encode(chart.Unit)}{(axis.Logarithmic ? " (log scale)" : string.Empty)}</text>"));
        for (var label = 0; label < chart.Labels.Count; label++)
        {
            var groupTop = top + (label * groupHeight);
            html.Append(Invariant($"<text x=\"{left - 8}\" y=\"{groupTop + (chart.Series.Count * BarHeight / 2.0) + 4:F1}\" text-anchor=\"end\">{Encode(chart.Labels[label])}</text>"));
            for (var s = 0; s < chart.Series.Count; s++)
            {
                var value = chart.Series[s].Values[label];
                var y = groupTop + (s * BarHeight);
                if (double.IsNaN(value.Median))
                {
                    html.Append(Invariant($"<text x=\"{left + 5}\" y=\"{y + BarHeight - 3}\" font-size=\"11\" fill=\"#777\">not measured</text>"));
                    continue;
                }

                var color = Colors[(chart.ColorByLabel ? label : s) % Colors.Length];
                var end = axis.Position(value.Median);
                html.Append(Invariant($"<rect x=\"{left}\" y=\"{y + 1}\" width=\"{end:F1}\" height=\"{BarHeight - 2}\" fill=\"{color}\"><title>{Encode(chart.Series[s].Name)}: {Encode(CellText.Format(value))} {Encode(chart.Unit)}</title></rect>"));
                var textAt = end;
                if (!value.IsSingle)
                {
                    var (low, high) = (left + axis.Position(value.Min), left + axis.Position(value.Max));
                    var middle = y + (BarHeight / 2.0);
                    html.Append(Invariant($"<path d=\"M{low:F1} {middle:F1}H{high:F1}M{low:F1} {middle - 4:F1}V{middle + 4:F1}M{high:F1} {middle - 4:F1}V{middle + 4:F1}\" stroke=\"#222\" fill=\"none\"/>"));
                    textAt = Math.Max(end, high - left);
                }

                html.Append(Invariant($"<text x=\"{left + textAt + 5:F1}\" y=\"{y + BarHeight - 3}\" font-size=\"11\">{Encode(CellText.Number(value.Median))}</text>"));
            }
        }

        html.Append(Invariant($"<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{plotBottom}\" stroke=\"#888\"/>")).Append("</svg>");
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    private static string Encode(string text) => WebUtility.HtmlEncode(text);

    /// <summary>Maps values onto the plot's width, linearly from zero or by decades.</summary>
    private sealed record Axis(bool Logarithmic, double Low, double High, int PlotWidth)
    {
        public static Axis For(BarChart chart, int plotWidth)
        {
            var values = chart.Series.SelectMany(s => s.Values).SelectMany(v => new[] { v.Min, v.Max, v.Median }).Where(v => !double.IsNaN(v)).ToList();
            var max = values.DefaultIfEmpty(0).Max();
            if (chart.Logarithmic && values.Any(v => v > 0))
            {
                var min = values.Where(v => v > 0).Min();
                return new Axis(true, Math.Pow(10, Math.Floor(Math.Log10(min))), Math.Pow(10, Math.Ceiling(Math.Log10(max * 1.0001))), plotWidth);
            }

            return new Axis(false, 0, max > 0 ? NiceCeiling(max) : 1, plotWidth);
        }

        public double Position(double value)
        {
            if (Logarithmic)
            {
                var clamped = Math.Clamp(value, Low, High);
                return (Math.Log10(clamped) - Math.Log10(Low)) / (Math.Log10(High) - Math.Log10(Low)) * PlotWidth;
            }

            return Math.Clamp(value / High, 0, 1) * PlotWidth;
        }

        public IEnumerable<(double Value, string Text)> Ticks()
        {
            if (Logarithmic)
            {
                for (var value = Low; value <= High * 1.0001; value *= 10)
                {
                    yield return (value, CellText.Number(value));
                }

                yield break;
            }

            for (var i = 0; i <= 4; i++)
            {
                yield return (High * i / 4, CellText.Number(High * i / 4));
            }
        }

        private static double NiceCeiling(double value)
        {
            var decade = Math.Pow(10, Math.Floor(Math.Log10(value)));
            return new[] { 1, 2, 2.5, 4, 5, 10 }.Select(step => step * decade).First(step => step >= value);
        }
    }
}
