using System.Globalization;
using System.Text.Json;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// <c>berth zmq bench</c>: PUSH/PULL throughput per message size and send strategy and REQ/REP latency through
/// Berth.Zmq, each beside the same workload driven from C against libzmq (the limit) and through NetMQ, interleaved in one run.
/// </summary>
internal static class ZmqBenchmark
{
    private static readonly int[] Sizes = [64, 1024, 65536, 1048576];

    public static int Run(string[] args)
    {
        var options = new Options(args, "quick");
        var quick = options.Flag("quick");
        var jsonPath = options.String("json", string.Empty);
        options.RejectUnknown();

        var command = "berth zmq bench" + (quick ? " --quick" : string.Empty);
        var machine = MachineDescription.Describe();
        var native = NativeZmqPrograms.Build();
        var repeats = quick ? 1 : 3;

        var throughput = new ReportTable(
            $"ZeroMQ PUSH/PULL throughput, tcp loopback, one sender and one receiver thread (median of {repeats}, interleaved)",
            command, machine, "size", "implementation", "msg/s", "spread %", "MB/s", "vs C", "vs NetMQ", "alloc B/msg");
        foreach (var size in Sizes)
        {
            var count = MessageCount(size, quick);
            var warmUp = Math.Min(count, Math.Max(3_000, count / 10));
            var c = new List<double>();
            var netMq = new List<ThroughputRun.Result>();
            var berth = Enum.GetValues<SendStrategy>().ToDictionary(s => s, _ => new List<ThroughputRun.Result>());
            NetMqRuns.Throughput(size, warmUp);
            foreach (var strategy in berth.Keys)
            {
                ThroughputRun.Measure(strategy, size, warmUp);
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
            }

            var cRate = Median(c);
            var netMqRate = Median(netMq.Select(r => r.MessagesPerSecond));
            throughput.Add(Bytes(size), "C libzmq", Rate(cRate), Spread(c), Megabytes(cRate, size), "1.00", Ratio(cRate, netMqRate), "-");
            AddThroughputRow(throughput, size, "NetMQ 4.0.4.5 (Msg)", netMq, cRate, netMqRate);
            foreach (var (strategy, results) in berth)
            {
                AddThroughputRow(throughput, size, $"Berth {strategy}", results, cRate, netMqRate);
            }
        }

        const int LatencySize = 64;
        var roundTrips = quick ? 5_000 : 20_000;
        var latency = new ReportTable(
            $"ZeroMQ REQ/REP round-trip latency, {LatencySize} B, tcp loopback, {roundTrips} round trips (median of {repeats}, interleaved)",
            command, machine, "size", "implementation", "p50 µs", "p99 µs", "mean µs", "p50 vs C", "p99 vs C", "p50 vs NetMQ");
        var latencies = new Dictionary<string, List<LatencyRun.Result>>
        {
            ["C libzmq"] = [], ["NetMQ 4.0.4.5 (Msg)"] = [], ["Berth blocking"] = [], ["Berth async"] = [],
        };
        NetMqRuns.Latency(LatencySize, roundTrips / 5);
        LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous: false);
        LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous: true);
        for (var repeat = 0; repeat < repeats; repeat++)
        {
            Progress($"REQ/REP latency, run {repeat + 1}/{repeats}");
            var c = native.Run("req_rep_lat", LatencySize, roundTrips);
            latencies["C libzmq"].Add(new LatencyRun.Result(c["p50_us"], c["p99_us"], c["mean_us"]));
            latencies["NetMQ 4.0.4.5 (Msg)"].Add(NetMqRuns.Latency(LatencySize, roundTrips));
            latencies["Berth blocking"].Add(LatencyRun.Measure(LatencySize, roundTrips, asynchronous: false));
            latencies["Berth async"].Add(LatencyRun.Measure(LatencySize, roundTrips, asynchronous: true));
        }

        var cP50 = Median(latencies["C libzmq"].Select(r => r.P50Microseconds));
        var cP99 = Median(latencies["C libzmq"].Select(r => r.P99Microseconds));
        var netMqP50 = Median(latencies["NetMQ 4.0.4.5 (Msg)"].Select(r => r.P50Microseconds));
        foreach (var (name, results) in latencies)
        {
            var p50 = Median(results.Select(r => r.P50Microseconds));
            var p99 = Median(results.Select(r => r.P99Microseconds));
            latency.Add(
                Bytes(LatencySize), name, Micros(p50), Micros(p99), Micros(Median(results.Select(r => r.MeanMicroseconds))),
                Ratio(p50, cP50), Ratio(p99, cP99), Ratio(p50, netMqP50));
        }

        NetMQ.NetMQConfig.Cleanup(block: false);
        Console.WriteLine($"machine: {machine}");
        throughput.Print(Console.Out);
        latency.Print(Console.Out);
        if (jsonPath.Length > 0)
        {
            WriteJson(jsonPath, throughput, latency);
            Console.WriteLine();
            Console.WriteLine($"wrote {jsonPath}");
        }

        return 0;
    }

    private static void AddThroughputRow(ReportTable table, int size, string name, List<ThroughputRun.Result> results, double cRate, double netMqRate)
    {
        var rates = results.Select(r => r.MessagesPerSecond).ToList();
        var rate = Median(rates);
        table.Add(
            Bytes(size), name, Rate(rate), Spread(rates), Megabytes(rate, size), Ratio(rate, cRate), Ratio(rate, netMqRate),
            Megabytes(Median(results.Select(r => r.AllocatedBytesPerMessage)), 1_000_000));
    }

    /// <summary>The median; NaN (a stalled run) when any run stalled.</summary>
    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        if (sorted.Any(double.IsNaN))
        {
            return double.NaN;
        }

        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    /// <summary>The range of the runs as a percentage of their median: how far to trust a ratio on a shared machine.</summary>
    private static string Spread(IReadOnlyCollection<double> values) =>
        values.Count < 2 || values.Any(double.IsNaN) ? "-" : ((values.Max() - values.Min()) / Median(values) * 100).ToString("F0", CultureInfo.InvariantCulture);

    private static string Ratio(double value, double baseline) =>
        double.IsNaN(value) || double.IsNaN(baseline) ? "-" : (value / baseline).ToString("F2", CultureInfo.InvariantCulture);

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

    private static void WriteJson(string path, params ReportTable[] tables)
    {
        using var stream = File.Create(path);
        using var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true });
        json.WriteStartArray();
        foreach (var table in tables)
        {
            table.Write(json);
        }

        json.WriteEndArray();
    }

    private static void Progress(string step) => Console.Error.WriteLine($"  {step}");

    private static string Bytes(int size) => size >= 1024 ? $"{size / 1024} KB" : $"{size} B";

    private static string Rate(double perSecond) => double.IsNaN(perSecond) ? "stalled" : perSecond.ToString("N0", CultureInfo.InvariantCulture);

    private static string Megabytes(double perSecond, int size) => double.IsNaN(perSecond) ? "-" : (perSecond * size / 1e6).ToString("F1", CultureInfo.InvariantCulture);

    private static string Micros(double value) => double.IsNaN(value) ? "stalled" : value.ToString("F1", CultureInfo.InvariantCulture);
}
