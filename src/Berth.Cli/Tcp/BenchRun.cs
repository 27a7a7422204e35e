using Berth.Cli.Load;
using Berth.Cli.Reports;
using Berth.Tcp;

namespace Berth.Cli.Tcp;

/// <summary>
/// The main job: an in-process echo server on an ephemeral loopback port, driven by the load client for each message
/// size and connection count, with live progress, a table on the terminal and a report folder (JSON and a
/// self-contained HTML page with charts). Ctrl-C ends the running cell and reports the finished ones.
/// </summary>
internal static class BenchRun
{
    private static readonly int[] Sizes = [64, 512, 1024, 65536];
    private static readonly int[] ConnectionCounts = [1, 100];

    /// <summary>Keeps at most 256 KiB in flight per connection, so 64 KiB echoes stay inside the 1 MiB send queue.</summary>
    private const int InFlightBytesPerConnection = 256 * 1024;

    public static async Task<int> RunAsync(BenchSettings settings)
    {
        var serverOptions = new TcpServerOptions();
        var server = new TcpServer(serverOptions, new EchoHandler());
        server.Start();
        var cells = Sizes.Length * ConnectionCounts.Length;
        using var signals = new StopSignals(signal => Console.Error.WriteLine($"\n{signal}: stopping after the finished cells; the report will have those"));
        Console.WriteLine($"berth bench: echo server on {server.EndPoint}, {cells} runs of {settings.Warmup.TotalSeconds:0.#} s warm-up + {settings.Duration.TotalSeconds:0.#} s");

        var results = new List<(LoadResult Result, double BytesPerMessage)>();
        try
        {
            foreach (var size in Sizes)
            {
                foreach (var connections in ConnectionCounts)
                {
                    var load = new LoadSettings
                    {
                        Host = server.EndPoint.Address.ToString(),
                        Port = server.EndPoint.Port,
                        Connections = connections,
                        SizeMin = size,
                        SizeMax = size,
                        Pipeline = Math.Clamp(InFlightBytesPerConnection / (size + 4), 1, 16),
                        Warmup = settings.Warmup,
                        Duration = settings.Duration,
                    };
                    var (result, bytesPerMessage) = await MeasureAsync(load, $"[{results.Count + 1}/{cells}]", signals.Stopping);
                    results.Add((result, bytesPerMessage));
                    Console.WriteLine($"  {load.Describe(),-32} {result.MessagesPerSecond,12:N0} msg/s  p99 {result.P99Microseconds,8:N0} µs  {bytesPerMessage:F2} B/msg");
                }
            }
        }
        catch (OperationCanceledException) when (signals.Stopping.IsCancellationRequested)
        {
            Console.Error.WriteLine($"berth bench: interrupted after {results.Count} of {cells} cells");
        }
        finally
        {
            await server.StopAsync(signals.StopNow);
        }

        var table = new ReportTable(
            "Berth framed echo over loopback (in-process server)",
            settings.Command,
            MachineDescription.Current,
            ["workload", "msg/s", "MB/s", "p50 µs", "p99 µs", "p99.9 µs", "alloc B/msg", "errors"],
            [.. results.Select(r => Row(r.Result, r.BytesPerMessage))]);
        Console.WriteLine();
        TextTableWriter.Write(Console.Out, table);
        Console.WriteLine($"pooled buffers outstanding after stop: {serverOptions.BufferPool.Outstanding}");
        WriteReport(settings.OutDirectory, table, [.. results.Select(r => r.Result)]);
        if (settings.JsonPath is not null)
        {
            JsonReportWriter.Write(settings.JsonPath, [table]);
        }

        var complete = results.Count == cells;
        var errors = results.Sum(r => r.Result.Errors);
        return complete && errors == 0 && serverOptions.BufferPool.Outstanding == 0 ? ExitCode.Done : ExitCode.Failed;
    }

    /// <summary>
    /// Runs one load and samples the process's allocated bytes at the edges of its measurement window. The load client
    /// allocates nothing per message, so bytes per message here bound what the server allocates.
    /// </summary>
    private static async Task<(LoadResult Result, double BytesPerMessage)> MeasureAsync(LoadSettings settings, string step, CancellationToken cancellationToken)
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

        return (result, result.Messages == 0 ? 0 : (double)(after - before) / result.Messages);
    }

    private static object[] Row(LoadResult result, double bytesPerMessage) =>
    [
        result.Settings.Describe(),
        result.MessagesPerSecond,
        result.MegabytesPerSecond,
        result.P50Microseconds,
        result.P99Microseconds,
        result.P999Microseconds,
        bytesPerMessage,
        result.Errors,
    ];

    private static void WriteReport(string directory, ReportTable table, IReadOnlyList<LoadResult> results)
    {
        var labels = results.Select(r => r.Settings.Describe()).ToArray();
        JsonReportWriter.Write(Path.Combine(directory, "results.json"), [table]);
        HtmlReportWriter.Write(
            Path.Combine(directory, "index.html"),
            "Berth bench",
            "An echo server and the load client in one process, over loopback. Each connection keeps up to 16 frames "
                + "(at most 256 KiB) in flight. alloc B/msg is the process's allocated bytes over the measurement window "
                + "per message; the load client allocates nothing per message, so it bounds what the server allocates.",
            [table],
            [
                new BarChart("Throughput", "msg/s", labels, [.. results.Select(r => r.MessagesPerSecond)]),
                new BarChart("Round-trip time, p99", "µs", labels, [.. results.Select(r => r.P99Microseconds)]),
                new BarChart("Round-trip time, p50", "µs", labels, [.. results.Select(r => r.P50Microseconds)]),
            ]);
        Console.WriteLine($"report: {Path.GetFullPath(Path.Combine(directory, "index.html"))}");
    }
}
