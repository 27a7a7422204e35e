using Berth.Cli.Reports;

namespace Berth.Tests.Cli;

public sealed class ReportTests
{
    private static readonly ReportColumn[] Columns = [new("workload", "workload"), new("rate", "msg/s")];

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
        var busy = new MachineSnapshot("test machine", 2, 3.0, DateTimeOffset.UnixEpoch);
        var report = new Report("t", "n", "berth bench", busy, [new ReportTable("t", Columns, [["a", new Spread(100, 50, 150)]])], []);
        var warnings = report.Warnings();
        Assert.Contains(warnings, w => w.Contains("busy", StringComparison.Ordinal));
        Assert.Contains(warnings, w => w.Contains("1 of 1 repeated values vary", StringComparison.Ordinal));
    }

    [Fact]
    public void AnIdleMachineWithTightRepeatsIsNotWarnedAbout()
    {
        var idle = new MachineSnapshot("test machine", 2, 0.2, DateTimeOffset.UnixEpoch);
        var report = new Report("t", "n", "berth bench", idle, [new ReportTable("t", Columns, [["a", new Spread(100, 95, 104)]])], []);
        Assert.Empty(report.Warnings());
    }

    [Fact]
    public void TextTablesHaveNoTrailingSpaces()
    {
        var output = new StringWriter();
        TextTableWriter.Write(output, new ReportTable("t", Columns, [["a long workload label", 1.5], ["b", new Spread(2, 1, 3)]]));
        Assert.All(output.ToString().Split('\n'), line => Assert.Equal(line.TrimEnd(), line));
    }
}
