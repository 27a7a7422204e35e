using Berth.Cli.Compare;
using Berth.Cli.Load;
using Berth.Cli.Reports;
using Berth.Tcp;

namespace Berth.Cli.Tcp;

/// <summary>
/// <c>berth bench</c>, the main job: an in-process echo server on an ephemeral loopback port, driven by the load
/// client for each message size and connection count, with live progress, a table on the terminal and a report
/// folder (JSON and a self-contained HTML page with charts).
/// </summary>
internal static class BenchCommand
{
    public const string Summary = "the main job: in-process echo server measured per size and connection count: berth bench [--quick] [--duration SECONDS] [--out DIR] [--json FILE] [--compare [--repeat N]]";

    private static readonly int[] Sizes = [64, 512, 1024, 65536];
    private static readonly int[] ConnectionCounts = [1, 100];

    /// <summary>Keeps at most 256 KiB in flight per connection, so 64 KiB echoes stay inside the 1 MiB send queue.</summary>
    private const int InFlightBytesPerConnection = 256 * 1024;

    public static async Task<int> RunAsync(string[] args)
    {
        var options = new Options(args, "quick", "compare");
        var quick = options.Flag("quick");
        var compare = options.Flag("compare");
        var repeat = compare ? options.Int("repeat", 1, 1, 100) : 1;
        var duration = TimeSpan.FromSeconds(options.Double("duration", quick ? 1.5 : 4, 0.1, 3600));
        var warmup = TimeSpan.FromSeconds(options.Double("warmup", quick ? 0.5 : 1, 0, 3600));
        var outDirectory = options.String("out", "berth-report");
        var jsonPath = options.String("json", string.Empty);
        options.RejectUnknown();

        if (compare && await CompareRun.RunAsync(
            new CompareSettings { Quick = quick, Repeat = repeat, Warmup = warmup, Duration = duration, OutDirectory = outDirectory, JsonPath = jsonPath, Command = "berth bench " + string.Join(' ', args) },
            CancellationToken.None) is { } exitCode)
        {
            return exitCode;
        }

        var serverOptions = new TcpServerOptions();
        var server = new TcpServer(serverOptions, new EchoHandler());
        server.Start();
        Console.WriteLine($"berth bench: echo server on {server.EndPoint}, {Sizes.Length * ConnectionCounts.Length} runs of {warmup.TotalSeconds:0.#} s warm-up + {duration.TotalSeconds:0.#} s");

        var rows = new List<object[]>();
        var results = new List<LoadResult>();
        var run = 0;
        try
        {
            foreach (var size in Sizes)
            {
                foreach (var connections in ConnectionCounts)
                {
                    run++;
                    var settings = new LoadSettings
                    {
                        Host = server.EndPoint.Address.ToString(),
                        Port = server.EndPoint.Port,
                        Connections = connections,
                        SizeMin = size,
                        SizeMax = size,
                        Pipeline = Math.Clamp(InFlightBytesPerConnection / (size + 4), 1, 16),
                        Warmup = warmup,
                        Duration = duration,
                    };
                    var (result, bytesPerMessage) = await MeasureAsync(settings, $"[{run}/{Sizes.Length * ConnectionCounts.Length}]");
                    results.Add(result);
                    rows.Add(Row(result, bytesPerMessage));
                    Console.WriteLine($"  {LoadCommand.Describe(settings),-32} {result.MessagesPerSecond,12:N0} msg/s  p99 {result.P99Microseconds,8:N0} µs  {bytesPerMessage:F2} B/msg");
                }
            }
        }
        finally
        {
            await server.StopAsync();
        }

        var table = new ReportTable(
            "Berth framed echo over loopback (in-process server)",
            "berth bench " + string.Join(' ', args),
            MachineDescription.Current,
            ["workload", "msg/s", "MB/s", "p50 µs", "p99 µs", "p99.9 µs", "alloc B/msg", "errors"],
            [.. rows]);
        Console.WriteLine();
        TextTableWriter.Write(Console.Out, table);
        Console.WriteLine($"pooled buffers outstanding after stop: {serverOptions.BufferPool.Outstanding}");
        WriteReport(outDirectory, table, results);
        if (jsonPath.Length > 0)
        {
            JsonReportWriter.Write(jsonPath, [table]);
        }

        var errors = results.Sum(r => r.Errors);
        return errors == 0 && serverOptions.BufferPool.Outstanding == 0 ? 0 : 1;
    }

    /// <summary>
    /// Runs one load and samples the process's allocated bytes at the edges of its measurement window. The load client
    /// allocates nothing per message, so bytes per message here bound what the server allocates.
    /// </summary>
    private static async Task<(LoadResult Result, double BytesPerMessage)> MeasureAsync(LoadSettings settings, string step)
    {
        long before = 0, after = 0;
        var runner = new LoadRunner(settings)
        {
            MeasurementStarting = () => before = GC.GetTotalAllocatedBytes(precise: true),
            MeasurementEnded = () => after = GC.GetTotalAllocatedBytes(precise: true),
        };
        LoadResult result;
        await using (new ProgressLine($"{step} {LoadCommand.Describe(settings)}", runner.Progress))
        {
            result = await runner.RunAsync(CancellationToken.None);
        }

        return (result, result.Messages == 0 ? 0 : (double)(after - before) / result.Messages);
    }

    private static object[] Row(LoadResult result, double bytesPerMessage) =>
    [
        LoadCommand.Describe(result.Settings),
        result.MessagesPerSecond,
        result.MegabytesPerSecond,
        result.P50Microseconds,
        result.P99Microseconds,
        result.P999Microseconds,
        bytesPerMessage,
        result.Errors,
    ];

    private static void WriteReport(string directory, ReportTable table, List<LoadResult> results)
    {
        Directory.CreateDirectory(directory);
        var labels = results.Select(r => LoadCommand.Describe(r.Settings)).ToArray();
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
