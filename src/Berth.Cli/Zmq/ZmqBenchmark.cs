using Berth.Cli.Reports;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// <c>berth zmq bench</c>: PUSH/PULL throughput per message size and send strategy and REQ/REP latency through
/// Berth.Zmq, each beside the same workload driven from C against libzmq (the limit), in one run.
/// </summary>
internal static class ZmqBenchmark
{
    private static readonly int[] Sizes = [64, 1024, 65536];

    private static readonly ReportColumn[] ThroughputColumns =
    [
        new("size", "size"),
        new("implementation", "implementation"),
        new("messagesPerSecond", "msg/s"),
        new("megabytesPerSecond", "MB/s"),
        new("relativeToC", "vs C"),
        new("allocatedBytesPerMessage", "alloc B/msg"),
    ];

    private static readonly ReportColumn[] LatencyColumns =
    [
        new("size", "size"),
        new("implementation", "implementation"),
        new("p50Microseconds", "p50 µs"),
        new("p99Microseconds", "p99 µs"),
        new("meanMicroseconds", "mean µs"),
        new("p50RelativeToC", "p50 vs C"),
    ];

    public static int Run(ZmqBenchSettings settings)
    {
        var quick = settings.Quick;
        var machine = MachineSnapshot.Take($"libzmq {ZmqLibrary.Version}");
        var native = NativeZmqPrograms.Build();
        var repeats = quick ? 1 : 3;

        var throughput = new List<object[]>();
        foreach (var size in Sizes)
        {
            var count = MessageCount(size, quick);
            Progress($"PUSH/PULL {size} B x {count}: C");
            var c = Enumerable.Range(0, repeats).Max(_ => native.Run("push_pull_thr", size, count)["msgs_per_sec"]);
            throughput.Add([Bytes(size), "C libzmq", c, Megabytes(c, size), 1.0, "-"]);
            foreach (var strategy in Enum.GetValues<SendStrategy>())
            {
                Progress($"PUSH/PULL {size} B x {count}: Berth {strategy}");
                ThroughputRun.Measure(strategy, size, Math.Max(1000, count / 10));
                var best = Enumerable.Range(0, repeats)
                    .Select(_ => ThroughputRun.Measure(strategy, size, count))
                    .MaxBy(r => r.MessagesPerSecond);
                throughput.Add(
                [
                    Bytes(size), $"Berth {strategy}", best.MessagesPerSecond, Megabytes(best.MessagesPerSecond, size),
                    best.MessagesPerSecond / c, best.AllocatedBytesPerMessage,
                ]);
            }
        }

        const int LatencySize = 64;
        var roundTrips = quick ? 5_000 : 20_000;
        var latency = new List<object[]>();
        Progress("REQ/REP latency: C");
        var cLatency = Enumerable.Range(0, repeats)
            .Select(_ => native.Run("req_rep_lat", LatencySize, roundTrips))
            .MinBy(r => r["p50_us"])!;
        latency.Add([Bytes(LatencySize), "C libzmq", cLatency["p50_us"], cLatency["p99_us"], cLatency["mean_us"], 1.0]);
        foreach (var asynchronous in new[] { false, true })
        {
            Progress($"REQ/REP latency: Berth {(asynchronous ? "async" : "blocking")}");
            LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous);
            var best = Enumerable.Range(0, repeats)
                .Select(_ => LatencyRun.Measure(LatencySize, roundTrips, asynchronous))
                .MinBy(r => r.P50Microseconds);
            latency.Add(
            [
                Bytes(LatencySize), asynchronous ? "Berth async" : "Berth blocking",
                best.P50Microseconds, best.P99Microseconds, best.MeanMicroseconds, best.P50Microseconds / cLatency["p50_us"],
            ]);
        }

        var report = Report(settings, machine, repeats, roundTrips, throughput, latency);
        Console.WriteLine($"machine: {machine.Description}; {machine.LoadText}");
        foreach (var table in report.Tables)
        {
            Console.WriteLine();
            TextTableWriter.Write(Console.Out, table);
        }

        foreach (var warning in report.Warnings())
        {
            Console.WriteLine($"warning: {warning}");
        }

        HtmlReportWriter.Write(Path.Combine(settings.OutDirectory, "index.html"), report);
        JsonReportWriter.Write(Path.Combine(settings.OutDirectory, "results.json"), report);
        Console.WriteLine($"report: {Path.GetFullPath(Path.Combine(settings.OutDirectory, "index.html"))}");
        if (settings.JsonPath is not null)
        {
            JsonReportWriter.Write(settings.JsonPath, report);
            Console.WriteLine($"wrote {settings.JsonPath}");
        }

        return ExitCode.Done;
    }

    private static Report Report(ZmqBenchSettings settings, MachineSnapshot machine, int repeats, int roundTrips, List<object[]> throughput, List<object[]> latency)
    {
        string Label(object[] row) => $"{row[0]} {row[1]}";
        ChartSeries Series(List<object[]> rows, int column, string name) => new(name, [.. rows.Select(r => Spread.Single(r[column] is double value ? value : 0))]);
        return new Report(
            "Berth zmq bench",
            $"Berth.Zmq beside the same workloads driven from C against libzmq (bench/native/zmq), in one run; best of {repeats} per cell.",
            settings.Command,
            machine,
            [
                new ReportTable($"ZeroMQ PUSH/PULL throughput, tcp loopback, one sender and one receiver thread (best of {repeats})", ThroughputColumns, throughput),
                new ReportTable($"ZeroMQ REQ/REP round-trip latency, 64 B, tcp loopback, {roundTrips} round trips (best p50 of {repeats})", LatencyColumns, latency),
            ],
            [
                new BarChart("REQ/REP round-trip time: p50, p99", "µs", [.. latency.Select(Label)], [Series(latency, 2, "p50"), Series(latency, 3, "p99")], Logarithmic: true),
                new BarChart("PUSH/PULL throughput", "msg/s", [.. throughput.Select(Label)], [Series(throughput, 2, "msg/s")], Logarithmic: true),
                new BarChart("PUSH/PULL throughput in bytes", "MB/s", [.. throughput.Select(Label)], [Series(throughput, 3, "MB/s")], Logarithmic: true),
                new BarChart("Allocated per message (whole process; C not measured)", "B/msg", [.. throughput.Where(r => r[5] is double).Select(Label)], [Series([.. throughput.Where(r => r[5] is double)], 5, "alloc B/msg")], Logarithmic: true),
            ]);
    }

    private static int MessageCount(int size, bool quick) => (size, quick) switch
    {
        (<= 64, true) => 300_000,
        (<= 64, false) => 2_000_000,
        (<= 1024, true) => 100_000,
        (<= 1024, false) => 500_000,
        (_, true) => 5_000,
        _ => 20_000,
    };

    private static void Progress(string step) => Console.Error.WriteLine($"  {step}");

    private static string Bytes(int size) => size >= 1024 ? $"{size / 1024} KB" : $"{size} B";

    private static double Megabytes(double perSecond, int size) => perSecond * size / 1e6;
}
