using Berth.Cli.Load;
using Berth.Cli.Reports;

namespace Berth.Cli.Tcp;

/// <summary>Runs one load, prints its table and each error by name, and exits with 1 unless every connection echoed without error.</summary>
internal static class LoadRun
{
    private static readonly ReportColumn[] Columns =
    [
        new("workload", "workload"),
        new("messagesPerSecond", "msg/s"),
        new("megabytesPerSecond", "MB/s"),
        new("p50Microseconds", "p50 µs"),
        new("p99Microseconds", "p99 µs"),
        new("p999Microseconds", "p99.9 µs"),
        new("maxMicroseconds", "max µs"),
        new("errors", "errors"),
    ];

    public static async Task<int> RunAsync(LoadRequest request)
    {
        var machine = MachineSnapshot.Take();
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

        var table = new ReportTable($"Framed echo load against {request.Load.Target}", Columns, [Row(result)]);
        TextTableWriter.Write(Console.Out, table);
        if (request.JsonPath is not null)
        {
            JsonReportWriter.Write(request.JsonPath, new Report("berth load", string.Empty, request.Command, machine, [table], []));
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
    ];
}
