using System.Globalization;
using System.Text.Json;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// <c>berth zmq bench</c>: PUSH/PULL throughput per message size and send strategy and REQ/REP latency through
/// Berth.Zmq, each beside the same workload driven from C against libzmq (the limit), in one run.
/// </summary>
internal static class ZmqBenchmark
{
    private static readonly int[] Sizes = [64, 1024, 65536];

    public static int Run(ZmqBenchSettings settings)
    {
        var quick = settings.Quick;
        var jsonPath = settings.JsonPath;
        var command = settings.Command;
        var machine = MachineDescription.Describe();
        var native = NativeZmqPrograms.Build();
        var repeats = quick ? 1 : 3;

        var throughput = new ReportTable(
            "ZeroMQ PUSH/PULL throughput, tcp loopback, one sender and one receiver thread (best of " + repeats + ")",
            command, machine, "size", "implementation", "msg/s", "MB/s", "vs C", "alloc B/msg");
        foreach (var size in Sizes)
        {
            var count = MessageCount(size, quick);
            Progress($"PUSH/PULL {size} B x {count}: C");
            var c = Enumerable.Range(0, repeats).Max(_ => native.Run("push_pull_thr", size, count)["msgs_per_sec"]);
            throughput.Add(Bytes(size), "C libzmq", Rate(c), Megabytes(c, size), "1.00", "-");
            foreach (var strategy in Enum.GetValues<SendStrategy>())
            {
                Progress($"PUSH/PULL {size} B x {count}: Berth {strategy}");
                ThroughputRun.Measure(strategy, size, Math.Max(1000, count / 10));
                var best = Enumerable.Range(0, repeats)
                    .Select(_ => ThroughputRun.Measure(strategy, size, count))
                    .MaxBy(r => r.MessagesPerSecond);
                throughput.Add(
                    Bytes(size), $"Berth {strategy}", Rate(best.MessagesPerSecond), Megabytes(best.MessagesPerSecond, size),
                    (best.MessagesPerSecond / c).ToString("F2", CultureInfo.InvariantCulture),
                    best.AllocatedBytesPerMessage.ToString("F1", CultureInfo.InvariantCulture));
            }
        }

        const int LatencySize = 64;
        var roundTrips = quick ? 5_000 : 20_000;
        var latency = new ReportTable(
            $"ZeroMQ REQ/REP round-trip latency, {LatencySize} B, tcp loopback, {roundTrips} round trips (best p50 of {repeats})",
            command, machine, "size", "implementation", "p50 µs", "p99 µs", "mean µs", "p50 vs C");
        Progress("REQ/REP latency: C");
        var cLatency = Enumerable.Range(0, repeats)
            .Select(_ => native.Run("req_rep_lat", LatencySize, roundTrips))
            .MinBy(r => r["p50_us"])!;
        latency.Add(Bytes(LatencySize), "C libzmq", Micros(cLatency["p50_us"]), Micros(cLatency["p99_us"]), Micros(cLatency["mean_us"]), "1.00");
        foreach (var asynchronous in new[] { false, true })
        {
            Progress($"REQ/REP latency: Berth {(asynchronous ? "async" : "blocking")}");
            LatencyRun.Measure(LatencySize, roundTrips / 5, asynchronous);
            var best = Enumerable.Range(0, repeats)
                .Select(_ => LatencyRun.Measure(LatencySize, roundTrips, asynchronous))
                .MinBy(r => r.P50Microseconds);
            latency.Add(
                Bytes(LatencySize), asynchronous ? "Berth async" : "Berth blocking",
                Micros(best.P50Microseconds), Micros(best.P99Microseconds), Micros(best.MeanMicroseconds),
                (best.P50Microseconds / cLatency["p50_us"]).ToString("F2", CultureInfo.InvariantCulture));
        }

        Console.WriteLine($"machine: {machine}");
        throughput.Print(Console.Out);
        latency.Print(Console.Out);
        if (jsonPath is not null)
        {
            WriteJson(jsonPath, throughput, latency);
            Console.WriteLine();
            Console.WriteLine($"wrote {jsonPath}");
        }

        return 0;
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

    private static string Rate(double perSecond) => perSecond.ToString("N0", CultureInfo.InvariantCulture);

    private static string Megabytes(double perSecond, int size) => (perSecond * size / 1e6).ToString("F1", CultureInfo.InvariantCulture);

    private static string Micros(double value) => value.ToString("F1", CultureInfo.InvariantCulture);
}
