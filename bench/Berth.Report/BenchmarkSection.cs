using System.Globalization;
using System.Text;

namespace Berth.Report;

/// <summary>
/// One benchmark class as a report section: the table with ratios beside absolute times (a generated block over the
/// run's result file, whose provenance line says where and how it was measured), and its chart.
/// </summary>
internal sealed class BenchmarkSection(string title, string? question, IReadOnlyList<BenchmarkResult> rows, string? perItemParameter, ReportInputs inputs)
{
    public string FullType => rows[0].FullType;

    public string ChartFileName => FullType.Replace("Berth.Benchmarks.", "", StringComparison.Ordinal) + ".svg";

    /// <summary>The table's id in the result file: the class without the suite's namespace.</summary>
    public string TableId => FullType.Replace("Berth.Benchmarks.", "", StringComparison.Ordinal);

    public string Markdown(string headingPrefix, string chartLink, ReportData data)
    {
        var baseline = inputs.Baselines.BaselineOf(FullType);
        var parameterNames = rows.SelectMany(r => r.Parameters.Select(p => p.Key)).Distinct().ToList();
        var headers = new List<string> { "Method" };
        headers.AddRange(parameterNames);
        headers.AddRange(["Mean", "Error (99.9%)", "StdDev", "Ratio", "Allocated"]);
        if (perItemParameter is not null)
        {
            headers.Add($"Mean per item ({perItemParameter})");
        }

        var table = new MarkdownTable(headers);
        foreach (var row in Ordered())
        {
            var baselineRow = BaselineFor(row, baseline);
            var cells = new List<string> { row.Method == baseline ? $"**{row.Method}** (baseline)" : row.Method };
            cells.AddRange(parameterNames.Select(name => Units.SizeParameterIf(name, row.Parameters.FirstOrDefault(p => p.Key == name).Value ?? "")));
            cells.Add(Units.Time(row.MeanNs));
            cells.Add(Units.Spread(row.ErrorNs));
            cells.Add(Units.Spread(row.StdDevNs));
            cells.Add(Units.Ratio(baselineRow is null ? null : baselineRow.MeanNs < Units.Unresolvable ? double.NaN : row.MeanNs / baselineRow.MeanNs));
            cells.Add(Units.Bytes(row.AllocatedBytes));
            if (perItemParameter is not null)
            {
                cells.Add(Units.Time(row.MeanNs / ItemsPerOperation(row)));
            }

            table.Add(cells);
        }

        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"{headingPrefix} {title}").AppendLine();
        if (question is not null)
        {
            text.AppendLine(question).AppendLine();
        }

        string[] note = [$"Class `{FullType}`. Baseline: {(baseline is null ? "none (no ratios)" : $"**{baseline}**")}. Every figure is per operation; Ratio = Mean ÷ the baseline's Mean at the same parameters. Job: {string.Join("; ", rows.Select(r => r.Job).Distinct())}."];
        if (PivotTable(parameterNames, baseline) is { } pivot)
        {
            text.Append(data.Block(pivot.ToResult(TableId + ".pivot", note))).AppendLine();
            text.AppendLine("<details><summary>Full table: error, standard deviation, allocations</summary>").AppendLine();
            text.Append(data.Block(table.ToResult(TableId, []))).AppendLine();
            text.AppendLine("</details>").AppendLine();
        }
        else
        {
            text.Append(data.Block(table.ToResult(TableId, note))).AppendLine();
        }

        text.AppendLine(CultureInfo.InvariantCulture, $"![{title}]({chartLink}{ChartFileName})").AppendLine();
        return text.ToString();
    }

    /// <summary>
    /// With one parameter (a size or a count), the article's own layout: one row per method, one
    /// column per parameter value, each cell the mean with its ratio to the baseline. When that
    /// parameter counts items per operation, the cells are per item.
    /// </summary>
    private MarkdownTable? PivotTable(IReadOnlyList<string> parameterNames, string? baseline)
    {
        if (parameterNames.Count != 1)
        {
            return null;
        }

        var name = parameterNames[0];
        var values = rows.Select(r => r.Parameters[0].Value).Distinct().ToList();
        var perItem = name == perItemParameter;
        var headers = new List<string> { perItem ? $"Method \\ {name} (mean per item)" : $"Method \\ {name}" };
        headers.AddRange(values.Select(v => Units.SizeParameterIf(name, v)));
        var pivot = new MarkdownTable(headers);
        foreach (var method in Ordered().Select(r => r.Method).Distinct())
        {
            var cells = new List<string> { method == baseline ? $"**{method}** (baseline)" : method };
            foreach (var value in values)
            {
                var row = rows.FirstOrDefault(r => r.Method == method && r.Parameters[0].Value == value);
                var baselineRow = row is null ? null : BaselineFor(row, baseline);
                var divisor = perItem ? ItemCount(value) : 1;
                cells.Add(row is null ? "" : baselineRow is null || baselineRow.MeanNs < Units.Unresolvable
                    ? Units.Time(row.MeanNs / divisor)
                    : $"{Units.Time(row.MeanNs / divisor)} ({Units.Ratio(row.MeanNs / baselineRow.MeanNs)}×)");
            }

            pivot.Add(cells);
        }

        return pivot;
    }

    public ChartData Chart()
    {
        var baseline = inputs.Baselines.BaselineOf(FullType);
        var groups = Ordered()
            .GroupBy(r => r.ParameterKey)
            .Select(g => new ChartGroup(
                GroupLabel(g.First()),
                g.Select(r => new ChartBar(r.Method, r.MeanNs / ItemsPerOperation(r), r.Method == baseline)).ToList()))
            .ToList();
        return new ChartData(title, groups, Units.Time, Units.TimeTick, perItemParameter is null ? "time per operation" : $"time per item ({perItemParameter})");
    }

    private double ItemsPerOperation(BenchmarkResult row) =>
        perItemParameter is null ? 1 : ItemCount(row.Parameters.FirstOrDefault(p => p.Key == perItemParameter).Value ?? "");

    private static double ItemCount(string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var count) ? count : double.NaN;

    private static string GroupLabel(BenchmarkResult row) => row.Parameters.Count switch
    {
        0 => "all",
        _ => string.Join(", ", row.Parameters.Select(p => $"{p.Key} = {Units.SizeParameterIf(p.Key, p.Value)}")),
    };

    private IEnumerable<BenchmarkResult> Ordered()
    {
        var parameterOrder = rows.Select(r => r.ParameterKey).Distinct().ToList();
        return rows
            .OrderBy(r => parameterOrder.IndexOf(r.ParameterKey))
            .ThenBy(r => inputs.Baselines.DeclarationOrder(FullType, r.Method));
    }

    private BenchmarkResult? BaselineFor(BenchmarkResult row, string? baseline) =>
        baseline is null ? null : rows.FirstOrDefault(r => r.Method == baseline && r.ParameterKey == row.ParameterKey);
}
