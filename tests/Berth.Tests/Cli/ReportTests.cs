using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Tests.Cli;

public sealed class ReportTests
{
    private static readonly ReportColumn[] Columns = [new("workload", "workload", CellFormat.Text), new("rate", "msg/s", CellFormat.Count)];

    [Fact]
    public void SpreadIsTheMedianWithTheLowestAndHighestRun()
    {
        Assert.Equal(new Spread(20, 10, 90), Spread.Of([90, 10, 20]));
        Assert.Equal(new Spread(15, 10, 20), Spread.Of([20, 10]));
        Assert.True(Spread.Single(5).IsSingle);
        Assert.True(double.IsNaN(Spread.Of([]).Median));
    }

    [Fact]
    public void ABusyMachineAndAWideSpreadAreWarnedAbout()
    {
        var report = new Report("t", "n", Run(otherCpuShare: 0.3), [new ReportTable("t", "t", Columns, [["a", new Spread(100, 50, 150)]])], []);
        var warnings = report.Warnings();
        Assert.Contains(warnings, w => w.Contains("busy", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.Contains("1 of 1 repeated values vary", StringComparison.Ordinal));
    }

    [Fact]
    public void AQuietMachineWithTightRepeatsIsNotWarnedAbout()
    {
        var report = new Report("t", "n", Run(otherCpuShare: 0.01), [new ReportTable("t", "t", Columns, [["a", new Spread(100, 95, 104)]])], []);
        Assert.Empty(report.Warnings());
    }

    [Fact]
    public void ARunWhoseOtherCpuUseWasNotMeasuredIsNotCalledQuiet()
    {
        var report = new Report("t", "n", Run(otherCpuShare: null), [new ReportTable("t", "t", Columns, [["a", new Spread(100, 95, 104)]])], []);
        Assert.Contains(report.Warnings(), w => w.Contains("not known to be quiet", StringComparison.Ordinal));
    }

    [Fact]
    public void TheResultFileKeepsRangesNumbersAndNotMeasuredCells()
    {
        var report = new Report("t", "a note", Run(otherCpuShare: 0.01), [new ReportTable("bench", "t", Columns, [["a", new Spread(100, 95, 104)], ["b", "-"]])], []);

        var table = Assert.Single(JsonReportWriter.ToResultFile(report).Tables);

        Assert.Equal("bench", table.Id);
        Assert.Equal(CellFormat.Range, table.Columns[1].Format);
        Assert.Equal(new ResultRange(95, 100, 104, CellFormat.Count), table.Rows[0][1]);
        Assert.Null(table.Rows[1][1]);
        Assert.Equal(["a note"], table.Notes);
    }

    [Fact]
    public void AResultFileReadsBackAsAReportPageWithItsRangesAndFormats()
    {
        var file = new ResultFile(Run(otherCpuShare: 0.01), [new ResultTable(
            "typed-vs-raw",
            "Typed echo",
            [new("workload", CellFormat.Text), new("typed msg/s", CellFormat.Range), new("median ratio", CellFormat.Ratio), new("verdict", CellFormat.Verdict)],
            [["64 B x 100", new ResultRange(90, 100, 110, CellFormat.Count), 0.934, "met"], ["1 KB x 100", null, null, "< 3 rounds"]],
            ["paired rounds"])]);

        var report = ResultFileReport.From(file, "page");
        var table = Assert.Single(report.Tables);
        Assert.Equal("Typed echo", table.Title);
        Assert.Equal(new Spread(100, 90, 110), table.Rows[0][1]);
        Assert.Equal("0.93x", table.Rows[0][2]);
        Assert.Equal(Berth.Results.CellText.Missing, table.Rows[1][1]);
        Assert.Equal("paired rounds", report.Note);

        var path = Path.Combine(Path.GetTempPath(), $"berth-report-{Guid.NewGuid():N}.html");
        try
        {
            HtmlReportWriter.Write(path, report);
            var html = File.ReadAllText(path);
            Assert.Contains("<span class=\"range\">90–110</span>", html, StringComparison.Ordinal);
            Assert.Contains("0.93x", html, StringComparison.Ordinal);
            Assert.Contains("&lt; 3 rounds", html, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static Provenance Run(double? otherCpuShare) =>
        new(DateTimeOffset.UnixEpoch, "abc", false, "test machine", [0.2, 0.2, 0.2], otherCpuShare, Provenance.IsQuiet(otherCpuShare), "berth bench", null);

    [Fact]
    public void TextTablesHaveNoTrailingSpaces()
    {
        var output = new StringWriter();
        TextTableWriter.Write(output, new ReportTable("t", "t", Columns, [["a long workload label", 1.5], ["b", new Spread(2, 1, 3)]]));
        Assert.All(output.ToString().Split('\n'), line => Assert.Equal(line.TrimEnd(), line));
    }
}
