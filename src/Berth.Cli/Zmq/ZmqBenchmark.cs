using Berth.Cli.Reports;
using Berth.Results;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// <c>berth zmq bench</c>: PUSH/PULL throughput per message size and send strategy and REQ/REP latency through
/// Berth.Zmq, each beside the same workload driven from C against libzmq (the limit) and through NetMQ (pure C#),
/// interleaved in one run; every cell is the median of its runs, shown with their min-max.
/// </summary>
internal static class ZmqBenchmark
{
    private const string NetMq = "NetMQ 4.0.4.5 (Msg)";

    /// <summary>The AppContext switch (docs/ZMQ.md) that makes a new context wait through the portable zmq_poll reactor.</summary>
    private const string PortableReactorSwitch = "Berth.Zmq.PortableReactor";

    /// <summary>The AppContext switch (docs/ZMQ.md) that makes a new context run woken continuations on its reactor thread.</summary>
    private const string InlineCompletionsSwitch = "Berth.Zmq.InlineCompletions";

    private const string AsyncEpoll = "Berth async (epoll reactor)";
    private const string AsyncEpollInline = "Berth async (epoll reactor, inline completions)";
    private const string AsyncPoll = "Berth async (poll reactor)";

    private static readonly int[] Sizes = [64, 1024, 65536, 1048576];

    private static readonly ReportColumn[] ThroughputColumns =
    [
        new("size", "size", CellFormat.Text),
        new("implementation", "implementation", CellFormat.Text),
        new("messagesPerSecond", "msg/s", CellFormat.Count),
        new("megabytesPerSecond", "MB/s", CellFormat.Int),
        new("relativeToC", "vs C", CellFormat.Ratio),
        new("relativeToNetMq", "vs NetMQ", CellFormat.Ratio),
        new("allocatedBytesPerMessage", "alloc B/msg", CellFormat.Bytes),
    ];

    private static readonly ReportColumn[] LatencyColumns =
    [
        new("size", "size", CellFormat.Text),
        new("implementation", "implementation", CellFormat.Text),
        new("p50Microseconds", "p50 µs", CellFormat.Us),
        new("p99Microseconds", "p99 µs", CellFormat.Us),
        new("meanMicroseconds", "mean µs", CellFormat.Us),
        new("p50RelativeToC", "p50 vs C", CellFormat.Ratio),
        new("p99RelativeToC", "p99 vs C", CellFormat.Ratio),
        new("p50RelativeToNetMq", "p50 vs NetMQ", CellFormat.Ratio),
    ];

    public static int Run(ZmqBenchSettings settings)
    {
        var quick = settings.Quick;
        var conditions = RunConditions.Start(settings.Command, $"libzmq {ZmqLibrary.Version}");
        var native = NativeZmqPrograms.Build();
        var repeats = quick ? 1 : 3;

        var throughput = new List<object[]>();
        foreach (var size in Sizes)
        {
            var count = MessageCount(size, quick);
            var warmUp = Math.Min(count, Math.Max(3_000, count / 10));
            var c = new List<double>();
            var netMq = new List<ThroughputRun.Result>();
            var berth = Enum.GetValues<SendStrategy>().ToDictionary(s => s, _ => new List<ThroughputRun.Result>());
            var asynchronous = new Dictionary<bool, List<ThroughputRun.Result>> { [false] = [], [true] = [] };
            NetMqRuns.Throughput(size, warmUp);
            foreach (var strategy in berth.Keys)
            {
                ThroughputRun.Measure(strategy, size, warmUp);
            }

            foreach (var portable in asynchronous.Keys)
            {
                AsyncThroughput(size, warmUp, portable);
            }

            for (var repeat = 0; repeat < repeats; repeat++)
            {
                Progress($"PUSH/PULL {size} B x {count}, run {repeat + 1}/{repeats}");
                c.Add(native.Run("push_pull_thr", size, count)["msgs_per_sec"]);
                netMq.Add(NetMqRuns.Throughput(size, count));
                foreach (var (strategy, results) in berth)
                {
                    results.Add(ThroughputRun.Measure(strategy, size, count));
                }

                foreach (var (portable, results) in asynchronous)
                {
                    results.Add(AsyncThroughput(size, count, portable));
                }
            }

            var cRate = Spread.Of(c).Median;
            var netMqRate = Median(netMq.Select(r => r.MessagesPerSecond));
            throughput.Add([Bytes(size), "C libzmq", Spread.Of(c), cRate * size / 1e6, 1.0, Ratio(cRate, netMqRate), "-"]);
            throughput.Add(ThroughputRow(size, NetMq, netMq, cRate, netMqRate));
            foreach (var (strategy, results) in berth)
            {
                throughput.Add(ThroughputRow(size, $"Berth {strategy}", results, cRate, netMqRate));
            }

            throughput.Add(ThroughputRow(size, AsyncEpoll, asynchronous[false], cRate, netMqRate));
            throughput.Add(ThroughputRow(size, AsyncPoll, asynchronous[true], cRate, netMqRate));
        }

        const int LatencySize = 64;
        var roundTrips = quick ? 5_000 : 20_000;
        var latencies = new Dictionary<string, List<LatencyRun.Result>>
        {
            ["C libzmq"] = [], [NetMq] = [], ["Berth blocking"] = [], [AsyncEpoll] = [], [AsyncEpollInline] = [], [AsyncPoll] = [],
        };
        NetMqRuns.Latency(LatencySize, roundTrips / 5);
        LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous: false);
        WithReactor(portable: false, () => LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous: true));
        WithInlineCompletions(() => LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous: true));
        WithReactor(portable: true, () => LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous: true));
        for (var repeat = 0; repeat < repeats; repeat++)
        {
            Progress($"REQ/REP latency, run {repeat + 1}/{repeats}");
            var c = native.Run("req_rep_lat", LatencySize, roundTrips);
            latencies["C libzmq"].Add(new LatencyRun.Result(c["p50_us"], c["p99_us"], c["mean_us"]));
            latencies[NetMq].Add(NetMqRuns.Latency(LatencySize, roundTrips));
            latencies["Berth blocking"].Add(LatencyRun.Measure(LatencySize, roundTrips, asynchronous: false));
            latencies[AsyncEpoll].Add(WithReactor(portable: false, () => LatencyRun.Measure(LatencySize, roundTrips, asynchronous: true)));
            latencies[AsyncEpollInline].Add(WithInlineCompletions(() => LatencyRun.Measure(LatencySize, roundTrips, asynchronous: true)));
            latencies[AsyncPoll].Add(WithReactor(portable: true, () => LatencyRun.Measure(LatencySize, roundTrips, asynchronous: true)));
        }

        NetMQ.NetMQConfig.Cleanup(block: false);
        var cP50 = Median(latencies["C libzmq"].Select(r => r.P50Microseconds));
        var cP99 = Median(latencies["C libzmq"].Select(r => r.P99Microseconds));
        var netMqP50 = Median(latencies[NetMq].Select(r => r.P50Microseconds));
        var latency = new List<object[]>();
        foreach (var (name, results) in latencies)
        {
            var p50 = Median(results.Select(r => r.P50Microseconds));
            var p99 = Median(results.Select(r => r.P99Microseconds));
            latency.Add(
            [
                Bytes(LatencySize), name, Cell(results.Select(r => r.P50Microseconds)), Cell(results.Select(r => r.P99Microseconds)),
                Cell(results.Select(r => r.MeanMicroseconds)), Ratio(p50, cP50), Ratio(p99, cP99), Ratio(p50, netMqP50),
            ]);
        }

        var report = Report(conditions.Finish(), repeats, roundTrips, throughput, latency);
        Console.WriteLine($"machine: {report.Provenance.Machine}; {RunConditions.LoadText(report.Provenance.LoadAtStart)}; {RunConditions.OtherCpuText(report.Provenance)}");
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
        if (settings.DataPath is not null)
        {
            JsonReportWriter.Write(settings.DataPath, report);
            Console.WriteLine($"data: {settings.DataPath}");
        }

        return ExitCode.Done;
    }

    private static object[] ThroughputRow(int size, string name, List<ThroughputRun.Result> results, double cRate, double netMqRate)
    {
        var rate = Median(results.Select(r => r.MessagesPerSecond));
        var allocated = Median(results.Select(r => r.AllocatedBytesPerMessage));
        return
        [
            Bytes(size), name, Cell(results.Select(r => r.MessagesPerSecond)), double.IsNaN(rate) ? "-" : rate * size / 1e6,
            Ratio(rate, cRate), Ratio(rate, netMqRate), double.IsNaN(allocated) ? "-" : allocated,
        ];
    }

    private static Report Report(Provenance provenance, int repeats, int roundTrips, List<object[]> throughput, List<object[]> latency)
    {
        string Label(object[] row) => $"{row[0]} {row[1]}";
        static Spread Value(object cell) => cell switch
        {
            Spread spread => spread,
            double value => Spread.Single(value),
            _ => Spread.Single(0),
        };
        ChartSeries Series(List<object[]> rows, int column, string name) => new(name, [.. rows.Select(r => Value(r[column]))]);
        var measured = throughput.Where(r => r[6] is double).ToList();
        return new Report(
            "Berth zmq bench",
            $"Berth.Zmq beside the same workloads driven from C against libzmq (bench/native/zmq) and through NetMQ, interleaved in one run; median of {repeats} per cell.",
            provenance,
            [
                new ReportTable("throughput", $"ZeroMQ PUSH/PULL throughput, tcp loopback, one sender and one receiver thread (median of {repeats}, interleaved)", ThroughputColumns, throughput),
                new ReportTable("latency", $"ZeroMQ REQ/REP round-trip latency, 64 B, tcp loopback, {roundTrips} round trips (median of {repeats}, interleaved)", LatencyColumns, latency),
            ],
            [
                new BarChart("REQ/REP round-trip time: p50, p99", "µs", [.. latency.Select(Label)], [Series(latency, 2, "p50"), Series(latency, 3, "p99")], Logarithmic: true),
                new BarChart("PUSH/PULL throughput", "msg/s", [.. throughput.Select(Label)], [Series(throughput, 2, "msg/s")], Logarithmic: true),
                new BarChart("PUSH/PULL throughput in bytes", "MB/s", [.. throughput.Select(Label)], [Series(throughput, 3, "MB/s")], Logarithmic: true),
                new BarChart("Allocated per message (whole process; C not measured)", "B/msg", [.. measured.Select(Label)], [Series(measured, 6, "alloc B/msg")], Logarithmic: true),
            ]);
    }

    /// <summary>Runs <paramref name="run"/> with contexts created on the epoll reactor or the portable zmq_poll one.</summary>
    private static T WithReactor<T>(bool portable, Func<T> run)
    {
        AppContext.SetSwitch(PortableReactorSwitch, portable);
        try
        {
            return run();
        }
        finally
        {
            AppContext.SetSwitch(PortableReactorSwitch, false);
        }
    }

    /// <summary>Runs <paramref name="run"/> with contexts created on the epoll reactor running woken continuations inline.</summary>
    private static T WithInlineCompletions<T>(Func<T> run)
    {
        AppContext.SetSwitch(InlineCompletionsSwitch, true);
        try
        {
            return WithReactor(portable: false, run);
        }
        finally
        {
            AppContext.SetSwitch(InlineCompletionsSwitch, false);
        }
    }

    /// <summary>
    /// PUSH/PULL with <c>SendAsync</c> and <c>ReceiveAsync</c> on both ends, so that every wait on the high-water mark
    /// or an empty queue goes through the reactor; otherwise the workload of <see cref="ThroughputRun"/>.
    /// </summary>
    private static ThroughputRun.Result AsyncThroughput(int size, int count, bool portable) => WithReactor(portable, () =>
    {
        using var context = new ZmqContext();
        using var pull = context.CreateSocket(ZmqSocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        var endpoint = pull.LastEndpoint;
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var sender = Task.Run(async () =>
        {
            using var push = context.CreateSocket(ZmqSocketType.Push);
            push.Connect(endpoint);
            var payload = new byte[size];
            for (var i = 0; i < count; i++)
            {
                await push.SendAsync(payload).ConfigureAwait(false);
            }
        });

        var seconds = ReceiveAllAsync(pull, count).GetAwaiter().GetResult();
        sender.GetAwaiter().GetResult();
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        return new ThroughputRun.Result((count - 1) / seconds, (double)allocated / count);
    });

    /// <summary>Receives <paramref name="count"/> messages; the clock runs from the first to the last, in seconds.</summary>
    private static async Task<double> ReceiveAllAsync(ZmqSocket pull, int count)
    {
        using var message = new ZmqMessage();
        await pull.ReceiveAsync(message).ConfigureAwait(false);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        for (var i = 1; i < count; i++)
        {
            await pull.ReceiveAsync(message).ConfigureAwait(false);
        }

        return clock.Elapsed.TotalSeconds;
    }

    /// <summary>The runs as a median with its min-max, or "stalled" when any run stalled (NaN).</summary>
    private static object Cell(IEnumerable<double> runs)
    {
        var values = runs.ToArray();
        return values.Any(double.IsNaN) ? "stalled" : Spread.Of(values);
    }

    /// <summary>The median; NaN (a stalled run) when any run stalled.</summary>
    private static double Median(IEnumerable<double> values)
    {
        var runs = values.ToArray();
        return runs.Any(double.IsNaN) ? double.NaN : Spread.Of(runs).Median;
    }

    private static object Ratio(double value, double baseline) => double.IsNaN(value) || double.IsNaN(baseline) ? "-" : value / baseline;

    private static int MessageCount(int size, bool quick) => (size, quick) switch
    {
        (<= 64, true) => 300_000,
        (<= 64, false) => 2_000_000,
        (<= 1024, true) => 100_000,
        (<= 1024, false) => 500_000,
        (<= 65536, true) => 5_000,
        (<= 65536, false) => 20_000,
        (_, true) => 1_000,
        _ => 4_000,
    };

    private static void Progress(string step) => Console.Error.WriteLine($"  {step}");

    private static string Bytes(int size) => size >= 1024 ? $"{size / 1024} KB" : $"{size} B";
}
