using Berth.Cli.Load;
using Berth.Cli.Reports;

namespace Berth.Cli.Tcp;

/// <summary>Runs one load, prints its table and each error by name, and exits with 1 unless every connection echoed without error.</summary>
internal static class LoadRun
{
    public static async Task<int> RunAsync(LoadRequest request)
    {
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

        var table = new ReportTable(
            $"Framed echo load against {request.Load.Host}:{request.Load.Port}",
            request.Command,
            MachineDescription.Current,
            ["workload", "msg/s", "MB/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors"],
            [Row(result)]);
        TextTableWriter.Write(Console.Out, table);
        if (request.JsonPath is not null)
        {
            JsonReportWriter.Write(request.JsonPath, [table]);
        }

        foreach (var (reason, count) in runner.Progress.ErrorsByReason())
        {
            Console.Error.WriteLine($"berth load: {count} connection(s): {reason}");
        }

        if (result.Messages == 0)
        {
            Console.Error.WriteLine($"berth load: nothing was echoed by {request.Load.Host}:{request.Load.Port}");
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
