using System.Net.Sockets;
using Berth.Cli.Load;
using Berth.Connections;
using Berth.Results;
using Berth.Results.Reports;

namespace Berth.Cli.Tcp;

/// <summary>
/// The main job: an in-process echo server on an ephemeral loopback port, driven by the load client for each message
/// size and connection count, with live progress, a table on the terminal and a report folder (JSON and a
/// self-contained HTML page with charts). With a repeat count, every cell runs once per round and the rounds follow
/// each other, so a slow spell of a shared machine spreads over all cells rather than hitting one. Ctrl-C ends the
/// running cell and reports the ones that finished at least once.
/// </summary>
internal static class BenchRun
{
    private static readonly int[] Sizes = [64, 512, 1024, 65536];
    private static readonly int[] ConnectionCounts = [1, 100];

    /// <summary>The sizes also run over a Unix domain socket, beside the same cells over TCP loopback.</summary>
    private static readonly int[] UnixSizes = [64, 1024];

    /// <summary>Keeps at most 256 KiB in flight per connection, so 64 KiB echoes stay inside the 1 MiB send queue.</summary>
    private const int InFlightBytesPerConnection = 256 * 1024;

    private static readonly ReportColumn[] Columns =
    [
        new("workload", "workload", CellFormat.Text),
        new("messagesPerSecond", "msg/s", CellFormat.Count),
        new("megabytesPerSecond", "MB/s", CellFormat.Int),
        new("p50Microseconds", "p50 µs", CellFormat.Us),
        new("p99Microseconds", "p99 µs", CellFormat.Us),
        new("p999Microseconds", "p99.9 µs", CellFormat.Us),
        new("allocatedBytesPerMessage", "alloc B/msg", CellFormat.Bytes),
        new("errors", "errors", CellFormat.Int),
    ];

    public static async Task<int> RunAsync(BenchSettings settings)
    {
        var conditions = RunConditions.Start(settings.Command);
        var serverOptions = new BerthServerOptions();
        var server = new BerthServer(serverOptions, new EchoHandler());
        server.Start();
        var unixPath = Socket.OSSupportsUnixDomainSockets ? Path.Combine(Path.GetTempPath(), $"berth-bench-{Environment.ProcessId}.sock") : null;
        var unixServer = unixPath is null ? null : new BerthServer(new BerthServerOptions { UnixSocketPath = unixPath, BufferPool = serverOptions.BufferPool }, new EchoHandler());
        unixServer?.Start();
        var cells = Cells(server, unixPath).ToArray();
        var runs = cells.Select(_ => new List<CellRun>()).ToArray();
        var total = cells.Length * settings.Repeat;
        using var signals = new StopSignals(signal => Console.Error.WriteLine($"\n{signal}: stopping; the report will have the finished cells"));
        Console.WriteLine($"berth bench: echo server on {server.EndPoint}, {cells.Length} cells x {settings.Repeat} of {settings.Warmup.TotalSeconds:0.#} s warm-up + {settings.Duration.TotalSeconds:0.#} s; {RunConditions.LoadText(conditions.LoadAtStart)}");

        var done = 0;
        try
        {
            for (var round = 0; round < settings.Repeat; round++)
            {
                for (var cell = 0; cell < cells.Length; cell++)
                {
                    var run = await MeasureAsync(cells[cell] with { Warmup = settings.Warmup, Duration = settings.Duration }, $"[{done + 1}/{total}]", signals.Stopping);
                    runs[cell].Add(run);
                    done++;
                    Console.WriteLine($"  {cells[cell].Describe(),-32} {run.Result.MessagesPerSecond,12:N0} msg/s  p99 {run.Result.P99Microseconds,8:N0} µs  {run.BytesPerMessage:F2} B/msg");
                    foreach (var (reason, count) in run.Result.ErrorsByReason)
                    {
                        Console.Error.WriteLine($"berth bench: {cells[cell].Describe()}: {count} connection(s): {reason}");
                    }
                }
            }
        }
        catch (OperationCanceledException) when (signals.Stopping.IsCancellationRequested)
        {
            Console.Error.WriteLine($"berth bench: interrupted after {done} of {total} runs");
        }
        finally
        {
            await server.StopAsync(signals.StopNow);
            if (unixServer is not null)
            {
                await unixServer.StopAsync(signals.StopNow);
            }
        }

        var finished = runs.Where(r => r.Count > 0).ToArray();
        var report = Report(settings, conditions.Finish(), finished);
        Console.WriteLine();
        TextTableWriter.Write(Console.Out, report.Tables[0]);
        foreach (var warning in report.Warnings())
        {
            Console.WriteLine($"warning: {warning}");
        }

        Console.WriteLine($"pooled buffers outstanding after stop: {serverOptions.BufferPool.Outstanding}");
        JsonReportWriter.Write(Path.Combine(settings.OutDirectory, "results.json"), report);
        HtmlReportWriter.Write(Path.Combine(settings.OutDirectory, "index.html"), report);
        Console.WriteLine($"report: {Path.GetFullPath(Path.Combine(settings.OutDirectory, "index.html"))}");
        if (settings.DataPath is not null)
        {
            JsonReportWriter.Write(settings.DataPath, report);
            Console.WriteLine($"data: {settings.DataPath}");
        }

        var errors = finished.Sum(r => r.Sum(run => run.Result.Errors));
        return done == total && errors == 0 && serverOptions.BufferPool.Outstanding == 0 ? ExitCode.Done : ExitCode.Failed;
    }

    private static IEnumerable<LoadSettings> Cells(BerthServer server, string? unixPath) =>
        from path in unixPath is null ? [null] : new[] { null, unixPath }
        from size in path is null ? Sizes : UnixSizes
        from connections in ConnectionCounts
        select new LoadSettings
        {
            Host = server.EndPoint.Address.ToString(),
            Port = server.EndPoint.Port,
            UnixSocketPath = path,
            Connections = connections,
            SizeMin = size,
            SizeMax = size,
            Pipeline = Math.Clamp(InFlightBytesPerConnection / (size + 4), 1, 16),
        };

    /// <summary>
    /// Runs one load and samples the process's allocated bytes at the edges of its measurement window. The load client
    /// allocates nothing per message, so bytes per message here bound what the server allocates.
    /// </summary>
    private static async Task<CellRun> MeasureAsync(LoadSettings settings, string step, CancellationToken cancellationToken)
    {
        long before = 0, after = 0;
        var runner = new LoadRunner(settings)
        {
            MeasurementStarting = () => before = GC.GetTotalAllocatedBytes(precise: true),
            MeasurementEnded = () => after = GC.GetTotalAllocatedBytes(precise: true),
        };
        LoadResult result;
        await using (new ProgressLine($"{step} {settings.Describe()}", runner.Progress))
        {
            result = await runner.RunAsync(cancellationToken);
        }

        return new CellRun(result, result.Messages == 0 ? 0 : (double)(after - before) / result.Messages);
    }

    private static Report Report(BenchSettings settings, Provenance provenance, IReadOnlyList<List<CellRun>> cells)
    {
        var labels = cells.Select(runs => runs[0].Result.Settings.Describe()).ToArray();
        Spread Of(List<CellRun> runs, Func<CellRun, double> value) => Spread.Of([.. runs.Select(value)]);
        ChartSeries Series(string name, Func<CellRun, double> value) => new(name, [.. cells.Select(runs => Of(runs, value))]);
        var table = new ReportTable(
            "bench",
            "Berth framed echo over loopback TCP and, in the rows marked unix, a Unix domain socket (in-process servers)",
            Columns,
            [
                .. cells.Select(runs => new object[]
                {
                    runs[0].Result.Settings.Describe(),
                    Of(runs, r => r.Result.MessagesPerSecond),
                    Of(runs, r => r.Result.MegabytesPerSecond),
                    Of(runs, r => r.Result.P50Microseconds),
                    Of(runs, r => r.Result.P99Microseconds),
                    Of(runs, r => r.Result.P999Microseconds),
                    Of(runs, r => r.BytesPerMessage),
                    runs.Sum(r => r.Result.Errors),
                }),
            ]);
        var repeats = settings.Repeat == 1 ? "one run per cell" : $"median of {settings.Repeat} runs per cell, bars show min-max";
        return new Report(
            "Berth bench",
            $"An echo server and the load client in one process, over loopback; {repeats}. Each connection keeps up to 16 frames "
                + "(at most 256 KiB) in flight. The allocation column is the process's allocated bytes over the measurement window "
                + "per message; the load client allocates nothing per message, so it bounds what the server allocates.",
            provenance,
            [table],
            [
                new BarChart("Round-trip time: p50, p99, p99.9", "µs", labels, [Series("p50", r => r.Result.P50Microseconds), Series("p99", r => r.Result.P99Microseconds), Series("p99.9", r => r.Result.P999Microseconds)], Logarithmic: true),
                new BarChart("Throughput", "msg/s", labels, [Series("msg/s", r => r.Result.MessagesPerSecond)]),
                new BarChart("Throughput in bytes", "MB/s", labels, [Series("MB/s", r => r.Result.MegabytesPerSecond)]),
                new BarChart("Allocated per message (whole process)", "B/msg", labels, [Series("alloc B/msg", r => r.BytesPerMessage)]),
            ]);
    }

    private sealed record CellRun(LoadResult Result, double BytesPerMessage);
}
