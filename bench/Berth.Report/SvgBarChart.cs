using System.Globalization;
using System.Security;
using System.Text;

namespace Berth.Report;

/// <summary>
/// Renders a horizontal grouped bar chart as standalone SVG (GitHub and browsers display it without
/// a chart library). Values spanning more than 30x switch the axis to a log scale, so a 10 ns and a
/// 100 µs bar are both readable; the axis label says which scale is used.
/// </summary>
internal static class SvgBarChart
{
    private const int Width = 900;
    private const int LabelWidth = 330;
    private const int ValueWidth = 90;
    private const int BarHeight = 16;
    private const int BarGap = 4;
    private const int GroupHeaderHeight = 22;
    private const int TitleHeight = 34;
    private const int AxisHeight = 40;

    private static readonly string[] Palette =
        ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

    public static string Render(ChartData chart)
    {
        var values = chart.Groups.SelectMany(g => g.Bars).Select(b => b.Value).Where(v => v > 0 && double.IsFinite(v)).ToList();
        var scale = Scale.For(values);
        var series = chart.Groups.SelectMany(g => g.Bars).Select(b => b.Series).Distinct().ToList();
        var plotWidth = Width - LabelWidth - ValueWidth;
        var height = TitleHeight + chart.Groups.Sum(g => GroupHeaderHeight + g.Bars.Count * (BarHeight + BarGap)) + AxisHeight;

        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{height}\" viewBox=\"0 0 {Width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.Append(CultureInfo.InvariantCulture, $"<rect width=\"{Width}\" height=\"{height}\" fill=\"white\"/>\n");
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{Xml(chart.Title)}</text>\n");

        var plotTop = TitleHeight;
        var plotBottom = height - AxisHeight;
        foreach (var tick in scale.Ticks())
        {
            var x = LabelWidth + scale.Position(tick) * plotWidth;
            svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{x:0.#}\" y1=\"{plotTop}\" x2=\"{x:0.#}\" y2=\"{plotBottom}\" stroke=\"#ddd\"/>\n");
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{x:0.#}\" y=\"{plotBottom + 14}\" text-anchor=\"middle\" fill=\"#555\">{Xml(chart.FormatTick(tick))}</text>\n");
        }

        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + plotWidth / 2}\" y=\"{plotBottom + 32}\" text-anchor=\"middle\" fill=\"#333\">{Xml(chart.AxisLabel + (scale.IsLog ? " (log scale)" : ""))}</text>\n");

        var y = plotTop;
        foreach (var group in chart.Groups)
        {
            svg.Append(CultureInfo.InvariantCulture, $"<text x=\"10\" y=\"{y + 16}\" font-weight=\"bold\">{Xml(group.Label)}</text>\n");
            y += GroupHeaderHeight;
            foreach (var bar in group.Bars)
            {
                var color = Palette[series.IndexOf(bar.Series) % Palette.Length];
                var label = bar.IsBaseline ? bar.Series + " (baseline)" : bar.Series;
                svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth - 6}\" y=\"{y + BarHeight - 4}\" text-anchor=\"end\">{Xml(label)}</text>\n");
                var measurable = bar.Value > 0 && double.IsFinite(bar.Value);
                var length = measurable ? Math.Max(1, scale.Position(bar.Value) * plotWidth) : 0;
                var stroke = bar.IsBaseline ? " stroke=\"#000\" stroke-width=\"1.5\"" : "";
                svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{LabelWidth}\" y=\"{y}\" width=\"{length:0.#}\" height=\"{BarHeight}\" fill=\"{color}\"{stroke}/>\n");
                var text = measurable ? chart.FormatValue(bar.Value) : "≈ 0 (not measurable)";
                svg.Append(CultureInfo.InvariantCulture, $"<text x=\"{LabelWidth + length + 4:0.#}\" y=\"{y + BarHeight - 4}\" fill=\"#222\">{Xml(text)}</text>\n");
                y += BarHeight + BarGap;
            }
        }

        svg.Append("</svg>\n");
        return svg.ToString();
    }

    private static string Xml(string text) => SecurityElement.Escape(text) ?? "";

    private sealed record Scale(double Min, double Max, bool IsLog)
    {
        public static Scale For(IReadOnlyList<double> values)
        {
            if (values.Count == 0)
            {
                return new Scale(0, 1, false);
            }

            var max = values.Max();
            var min = values.Min();
            if (max / min > 30)
            {
                return new Scale(Math.Pow(10, Math.Floor(Math.Log10(min))), Math.Pow(10, Math.Ceiling(Math.Log10(max))), true);
            }

            return new Scale(0, NiceCeiling(max * 1.05), false);
        }

        public double Position(double value) => IsLog
            ? Math.Clamp((Math.Log10(value) - Math.Log10(Min)) / (Math.Log10(Max) - Math.Log10(Min)), 0, 1)
            : Math.Clamp((value - Min) / (Max - Min), 0, 1);

        public IEnumerable<double> Ticks()
        {
            if (IsLog)
            {
                for (var tick = Min; tick <= Max * 1.0001; tick *= 10)
                {
                    yield return tick;
                }

                yield break;
            }

            for (var i = 0; i <= 5; i++)
            {
                yield return Min + (Max - Min) * i / 5;
            }
        }

        private static double NiceCeiling(double value)
        {
            var magnitude = Math.Pow(10, Math.Floor(Math.Log10(value)));
            var step = new[] { 1, 2, 2.5, 5, 10 }.First(s => s * magnitude >= value);
            return step * magnitude;
        }
    }
}
