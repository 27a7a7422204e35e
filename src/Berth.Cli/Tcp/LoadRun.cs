using Berth.Cli.Load;
using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Tcp;

/// <summary>Runs one load, prints its table and each error by name, and exits with 1 unless every connection echoed without error.</summary>
internal static class LoadRun
{
    private static readonly ReportColumn[] Columns =
    [
        new("workload", "workload", CellFormat.Text),
        new("messagesPerSecond", "msg/s", CellFormat.Count),
        new("megabytesPerSecond", "MB/s", CellFormat.Int),
        new("p50Microseconds", "p50 µs", CellFormat.Us),
        new("p99Microseconds", "p99 µs", CellFormat.Us),
        new("p999Microseconds", "p99.9 µs", CellFormat.Us),
        new("maxMicroseconds", "max µs", CellFormat.Us),
        new("errors", "errors", CellFormat.Int),
        new("idleBytesPerConnection", "idle heap per conn", CellFormat.Bytes),
        new("idleResidentBytesPerConnection", "idle RSS per conn", CellFormat.Bytes),
    ];

    public static async Task<int> RunAsync(LoadRequest request)
    {
        if (OpenFileLimit.Shortfall(request.Load.Connections) is { } shortfall)
        {
            Console.Error.WriteLine($"berth load: {shortfall}");
            return ExitCode.Failed;
        }

        var conditions = RunConditions.Start(request.Command);
        using var signals = new StopSignals();
        var runner = new LoadRunner(request.Load);
        LoadResult result;
        try
        {
            await using (new ProgressLine(request.Load.Describe(), runner.Progress))
            {
                result = await runner.RunAsync(signals.Stopping);
            }
        }
        catch (OperationCanceledException) when (signals.Stopping.IsCancellationRequested)
        {
            Console.Error.WriteLine("berth load: interrupted");
            return ExitCode.Failed;
        }

        var table = new ReportTable("load", $"Framed echo load against {request.Load.Target}", Columns, [Row(result)]);
        TextTableWriter.Write(Console.Out, table);
        if (request.DataPath is not null)
        {
            JsonReportWriter.Write(request.DataPath, new Report("berth load", string.Empty, conditions.Finish(), [table], []));
        }

        foreach (var (reason, count) in result.ErrorsByReason)
        {
            Console.Error.WriteLine($"berth load: {count} connection(s): {reason}");
        }

        if (result.Messages == 0)
        {
            Console.Error.WriteLine($"berth load: nothing was echoed by {request.Load.Target}");
            return ExitCode.Failed;
        }

        return result.Errors == 0 ? ExitCode.Done : ExitCode.Failed;
    }

    private static object[] Row(LoadResult result) =>
    [
        result.Settings.Describe(),
        result.MessagesPerSecond,
        result.MegabytesPerSecond,
        result.P50Microseconds,
        result.P99Microseconds,
        result.P999Microseconds,
        result.MaxMicroseconds,
        result.Errors,
        result.IdleBytesPerConnection,
        result.IdleResidentBytesPerConnection,
    ];
}
