using System.Globalization;
using Berth.Results;
using Berth.Results.Reports;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// <c>berth zmq bench</c>: PUSH/PULL and ROUTER/DEALER throughput per message size and REQ/REP latency through
/// Berth.Zmq, each beside the same workload driven from C against libzmq (the limit), through Net.Zmq when its source
/// is given and through NetMQ (pure C#), interleaved in rounds in one run. Every cell shows the median of its rounds
/// with their min-max; every comparison is the median of the per-round ratios, and each round's ratio to C is shown.
/// </summary>
internal static class ZmqBenchmark
{
    private const string C = "C libzmq";
    private const string NetMq = "NetMQ 4.0.4.5 (Msg)";
    private const string Blocking = "Berth blocking";

    /// <summary>The AppContext switch (docs/ZMQ.md) that makes a new context wait through the portable zmq_poll reactor.</summary>
    private const string PortableReactorSwitch = "Berth.Zmq.PortableReactor";

    /// <summary>The AppContext switch (docs/ZMQ.md) that, set to false, makes a new context queue woken continuations to the thread pool.</summary>
    private const string InlineCompletionsSwitch = "Berth.Zmq.InlineCompletions";

    private const string AsyncEpoll = "Berth async (epoll reactor)";
    private const string AsyncEpollPool = "Berth async (epoll reactor, thread-pool completions)";
    private const string AsyncPoll = "Berth async (poll reactor)";

    private static readonly int[] Sizes = [64, 1024, 65536, 1048576];

    /// <summary>The C throughput programs' send styles (bench/native/zmq/send_style.h); the fastest in each round is the anchor.</summary>
    private static readonly string[] CStyles = ["msg", "send", "zerocopy"];

    private static readonly ReportColumn[] ThroughputColumns =
    [
        new("size", "size", CellFormat.Text),
        new("implementation", "implementation", CellFormat.Text),
        new("messagesPerSecond", "msg/s", CellFormat.Count),
        new("megabytesPerSecond", "MB/s", CellFormat.Int),
        new("relativeToC", "vs C", CellFormat.Ratio),
        new("roundsRelativeToC", "vs C per round", CellFormat.Text),
        new("relativeToCSend", "vs C send", CellFormat.Ratio),
        new("relativeToNetZmq", "vs Net.Zmq best", CellFormat.Ratio),
        new("relativeToNetMq", "vs NetMQ", CellFormat.Ratio),
        new("allocatedBytesPerMessage", "alloc B/msg", CellFormat.Bytes),
        new("pageFaultsPerMessageRounds", "page faults/msg per round", CellFormat.Text),
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
        new("p50RelativeToBlocking", "p50 vs blocking", CellFormat.Ratio),
        new("p99RelativeToBlocking", "p99 vs blocking", CellFormat.Ratio),
        new("roundsP50RelativeToBlocking", "p50 vs blocking per round", CellFormat.Text),
        new("p50RelativeToNetZmq", "p50 vs Net.Zmq", CellFormat.Ratio),
        new("p50RelativeToNetMq", "p50 vs NetMQ", CellFormat.Ratio),
    ];

    public static int Run(ZmqBenchSettings settings)
    {
        var quick = settings.Quick;
        BenchMallocSettings.Apply();
        Console.Error.WriteLine($"  {BenchMallocSettings.Note}");
        var conditions = RunConditions.Start(settings.Command, $"libzmq {ZmqLibrary.Version}");
        var native = NativeZmqPrograms.Build();
        var netZmq = settings.NetZmqSource is { } source ? NetZmqPeer.Build(source) : null;
        var netZmqNote = netZmq is null ? "Net.Zmq: not run (source not given)" : "Net.Zmq: built from the source folder given with --netzmq";
        Console.Error.WriteLine($"  {netZmqNote}");
        var netMqNote = NetMqComparison.IsInBuild ? "NetMQ: in process" : "NetMQ: not in the native build";
        Console.Error.WriteLine($"  {netMqNote}");
        var rounds = settings.Rounds ?? (quick ? 1 : 3);
        int[] sizes = settings.Size is { } only ? [only] : Sizes;

        var pushPull = Throughput(ThroughputPattern.PushPull, sizes, native, netZmq, quick, rounds);
        var routerDealer = Throughput(ThroughputPattern.RouterDealer, sizes, native, netZmq, quick, rounds);
        var roundTrips = quick ? 5_000 : 20_000;
        var latency = Latency(native, netZmq, roundTrips, rounds);
        if (NetMqComparison.IsInBuild)
        {
            NetMQ.NetMQConfig.Cleanup(block: false);
        }

        var report = Report(conditions.Finish(), rounds, roundTrips, $"{netZmqNote}; {netMqNote}; {BenchMallocSettings.Note}", pushPull, routerDealer, latency);
        Console.WriteLine($"machine: {report.Provenance.Machine}; {RunConditions.LoadText(report.Provenance.LoadAtStart)}; {RunConditions.OtherCpuText(report.Provenance)}");
        Console.WriteLine(netZmqNote);
        Console.WriteLine(netMqNote);
        Console.WriteLine(BenchMallocSettings.Note);
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

    /// <summary>One implementation in a throughput cell: how to run it for a message count, and whether its allocations are this process's.</summary>
    private sealed record ThroughputContender(string Name, Func<int, ThroughputRun.Result> Run, bool InProcess)
    {
        public RoundSeries Rate { get; } = new(Name);

        public RoundSeries Allocated { get; } = new(Name);

        /// <summary>Minor page faults per message of the measuring process while the clock ran; NaN when a run stalled.</summary>
        public RoundSeries Faults { get; } = new(Name);
    }

    private static List<object[]> Throughput(ThroughputPattern pattern, int[] sizes, NativeZmqPrograms native, NetZmqPeer? netZmq, bool quick, int rounds)
    {
        // PUSH/PULL shows every send strategy and the async path; ROUTER/DEALER the default calls, the like-for-like rows of
        // the C msg and zerocopy styles (Message, ZeroCopy) and the two paths the default chooses between.
        SendStrategy[] strategies = pattern == ThroughputPattern.PushPull
            ? Enum.GetValues<SendStrategy>()
            : [SendStrategy.Default, SendStrategy.Message, SendStrategy.ZeroCopy, SendStrategy.Copied, SendStrategy.Pooled];
        var rows = new List<object[]>();
        foreach (var size in sizes)
        {
            var count = MessageCount(size, quick);
            var warmUp = Math.Min(count, Math.Max(3_000, count / 10));
            var contenders = CStyles.Select(style => new ThroughputContender(
                $"{C} ({style})", n => ChildResult(native.Run(pattern.Program(), size, n, (warmUp, style)), n), InProcess: false)).ToList();
            if (netZmq is not null)
            {
                contenders.AddRange(NetZmqPeer.Strategies.Select(s => new ThroughputContender(
                    $"{NetZmqPeer.Name} ({s})", n => ChildResult(netZmq.Run(pattern.Program(), size, n, (s, warmUp)), n), InProcess: false)));
            }

            if (NetMqComparison.IsInBuild)
            {
                contenders.Add(new(NetMq, n => NetMqRuns.Throughput(pattern, size, n, warmUp), InProcess: true));
            }

            contenders.AddRange(strategies.Select(s => new ThroughputContender($"Berth {s}", n => ThroughputRun.Measure(pattern, s, size, n, warmUp), InProcess: true)));
            if (pattern == ThroughputPattern.PushPull)
            {
                contenders.Add(new(AsyncEpoll, n => WithReactor(portable: false, inline: true, () => AsyncThroughput(size, n, warmUp)), InProcess: true));
                contenders.Add(new(AsyncEpollPool, n => WithReactor(portable: false, inline: false, () => AsyncThroughput(size, n, warmUp)), InProcess: true));
                contenders.Add(new(AsyncPoll, n => WithReactor(portable: true, inline: true, () => AsyncThroughput(size, n, warmUp)), InProcess: true));
            }

            foreach (var contender in contenders.Where(c => c.InProcess))
            {
                contender.Run(warmUp);
            }

            for (var round = 0; round < rounds; round++)
            {
                Progress($"{pattern.Title()} {size} B x {count}, round {round + 1}/{rounds}");
                foreach (var contender in contenders)
                {
                    var result = contender.Run(count);
                    contender.Rate.Add(result.MessagesPerSecond);
                    contender.Allocated.Add(result.AllocatedBytesPerMessage);
                    contender.Faults.Add(result.FaultsPerMessage);
                }
            }

            var styles = contenders.Take(CStyles.Length).ToList();
            var c = StrongestPerRound(C, styles.Select(x => x.Rate))!;

            // The C style that does what Send(ReadOnlySpan<byte>) does: every byte of a caller's buffer copied into the frame.
            var cSend = styles[Array.IndexOf(CStyles, "send")].Rate;
            var netZmqRate = StrongestPerRound(NetZmqPeer.Name, contenders.Where(x => x.Name.StartsWith(NetZmqPeer.Name, StringComparison.Ordinal)).Select(x => x.Rate));
            var netMqRate = contenders.SingleOrDefault(x => x.Name == NetMq)?.Rate;
            rows.Add(StrongestCRow(size, styles, c, cSend, netZmqRate, netMqRate));
            foreach (var contender in contenders)
            {
                var rate = contender.Rate.Median();
                rows.Add(
                [
                    Bytes(size), contender.Name, contender.Rate.Cell(), double.IsNaN(rate) ? "-" : rate * size / 1e6,
                    contender.Rate.RatioTo(c), contender.Rate.RoundsText(c), contender.Rate.RatioTo(cSend), contender.Rate.RatioTo(netZmqRate), contender.Rate.RatioTo(netMqRate),
                    contender.InProcess && !double.IsNaN(contender.Allocated.Median()) ? contender.Allocated.Median() : "-",
                    FaultsText(contender.Faults.Values),
                ]);
            }
        }

        return rows;
    }

    /// <summary>
    /// The anchor row: in each round the fastest of the C program's send styles, named round by round, with that style's
    /// page faults; every "vs C" ratio in the cell is to this row.
    /// </summary>
    private static object[] StrongestCRow(int size, List<ThroughputContender> styles, RoundSeries strongest, RoundSeries cSend, RoundSeries? netZmq, RoundSeries? netMq)
    {
        var winners = strongest.Values.Select((rate, round) => styles.First(s => s.Rate.Values[round].Equals(rate))).ToList();
        var name = $"{C}, fastest style per round ({string.Join(" ", winners.Select(w => w.Name[(C.Length + 2)..^1]))})";
        var rate = strongest.Median();
        return
        [
            Bytes(size), name, strongest.Cell(), double.IsNaN(rate) ? "-" : rate * size / 1e6, strongest.RatioTo(strongest), strongest.RoundsText(strongest),
            strongest.RatioTo(cSend), strongest.RatioTo(netZmq), strongest.RatioTo(netMq), "-", FaultsText(winners.Select((w, round) => w.Faults.Values[round])),
        ];
    }

    private static string FaultsText(IEnumerable<double> faults) =>
        faults.Any(double.IsNaN) ? "-" : string.Join(" ", faults.Select(f => f.ToString("0.00", CultureInfo.InvariantCulture)));

    /// <summary>A child program's <c>key=value</c> throughput output; its allocations are not this process's to count.</summary>
    private static ThroughputRun.Result ChildResult(IReadOnlyDictionary<string, double> values, int count) =>
        new(values["msgs_per_sec"], double.NaN, values["minor_faults"] / count);

    /// <summary>The higher rate of <paramref name="series"/> in each round: the strongest anchor; null when there is none.</summary>
    private static RoundSeries? StrongestPerRound(string name, IEnumerable<RoundSeries> series)
    {
        var all = series.ToList();
        if (all.Count == 0)
        {
            return null;
        }

        var strongest = new RoundSeries(name);
        for (var round = 0; round < all[0].Values.Count; round++)
        {
            strongest.Add(all.Max(s => s.Values[round]));
        }

        return strongest;
    }

    /// <summary>One implementation in the latency table and its p50, p99 and mean per round.</summary>
    private sealed record LatencyContender(string Name, Func<int, LatencyRun.Result> Run, bool InProcess)
    {
        public RoundSeries P50 { get; } = new(Name);

        public RoundSeries P99 { get; } = new(Name);

        public RoundSeries Mean { get; } = new(Name);
    }

    private static List<object[]> Latency(NativeZmqPrograms native, NetZmqPeer? netZmq, int roundTrips, int rounds)
    {
        const int Size = 64;
        static LatencyRun.Result FromValues(IReadOnlyDictionary<string, double> values) => new(values["p50_us"], values["p99_us"], values["mean_us"]);
        var contenders = new List<LatencyContender> { new(C, n => FromValues(native.Run("req_rep_lat", Size, n)), InProcess: false) };
        if (netZmq is not null)
        {
            contenders.Add(new(NetZmqPeer.Name, n => FromValues(netZmq.Run("req_rep_lat", Size, n)), InProcess: false));
        }

        if (NetMqComparison.IsInBuild)
        {
            contenders.Add(new(NetMq, n => NetMqRuns.Latency(Size, n), InProcess: true));
        }

        contenders.AddRange(
        [
            new(Blocking, n => LatencyRun.Measure(Size, n, asynchronous: false), InProcess: true),
            new(AsyncEpoll, n => WithReactor(portable: false, inline: true, () => LatencyRun.Measure(Size, n, asynchronous: true)), InProcess: true),
            new(AsyncEpollPool, n => WithReactor(portable: false, inline: false, () => LatencyRun.Measure(Size, n, asynchronous: true)), InProcess: true),
            new(AsyncPoll, n => WithReactor(portable: true, inline: true, () => LatencyRun.Measure(Size, n, asynchronous: true)), InProcess: true),
        ]);
        foreach (var contender in contenders.Where(c => c.InProcess))
        {
            contender.Run(roundTrips / 5);
        }

        for (var round = 0; round < rounds; round++)
        {
            Progress($"REQ/REP latency, round {round + 1}/{rounds}");
            foreach (var contender in contenders)
            {
                var result = contender.Run(roundTrips);
                contender.P50.Add(result.P50Microseconds);
                contender.P99.Add(result.P99Microseconds);
                contender.Mean.Add(result.MeanMicroseconds);
            }
        }

        LatencyContender? Find(string name) => contenders.Find(x => x.Name == name);
        var c = contenders[0];
        var blocking = Find(Blocking)!;
        var net = Find(NetZmqPeer.Name);
        var netMq = Find(NetMq);
        return
        [
            .. contenders.Select(x => new object[]
            {
                Bytes(Size), x.Name, x.P50.Cell(), x.P99.Cell(), x.Mean.Cell(), x.P50.RatioTo(c.P50), x.P99.RatioTo(c.P99),
                x.P50.RatioTo(blocking.P50), x.P99.RatioTo(blocking.P99), x.P50.RoundsText(blocking.P50), x.P50.RatioTo(net?.P50), x.P50.RatioTo(netMq?.P50),
            }),
        ];
    }

    private static Report Report(
        Provenance provenance, int rounds, int roundTrips, string notes, List<object[]> pushPull, List<object[]> routerDealer, List<object[]> latency)
    {
        string Label(object[] row) => $"{row[0]} {row[1]}";
        static Spread Value(object cell) => cell switch
        {
            Spread spread => spread,
            double value => Spread.Single(value),
            _ => Spread.Single(0),
        };
        ChartSeries Series(List<object[]> rows, int column, string name) => new(name, [.. rows.Select(r => Value(r[column]))]);
        var measured = pushPull.Where(r => r[9] is double).ToList();
        return new Report(
            "Berth zmq bench",
            $"Berth.Zmq beside the same workloads driven from C against libzmq (bench/native/zmq; in the throughput tables in each of its send styles, the fastest style of each round being the C every ratio is to), through Net.Zmq (bench/peers) and through NetMQ, interleaved in {rounds} rounds in one run; each cell is the median of its rounds and each comparison the median of the per-round ratios. Every throughput run first sends a warm-up of uncounted messages through the same sockets and threads. Page faults per message are the kernel's minor faults of the whole measuring process while the clock ran (the C and Net.Zmq programs count their own). {notes}.",
            provenance,
            [
                new ReportTable("throughput", $"ZeroMQ PUSH/PULL throughput, tcp loopback, one sender and one receiver thread ({rounds} interleaved rounds)", ThroughputColumns, pushPull),
                new ReportTable("routerDealer", $"ZeroMQ ROUTER/DEALER throughput, tcp loopback, a DEALER sender and a ROUTER receiver ({rounds} interleaved rounds)", ThroughputColumns, routerDealer),
                new ReportTable("latency", $"ZeroMQ REQ/REP round-trip latency, 64 B, tcp loopback, {roundTrips} round trips ({rounds} interleaved rounds)", LatencyColumns, latency),
            ],
            [
                new BarChart("REQ/REP round-trip time: p50, p99", "µs", [.. latency.Select(Label)], [Series(latency, 2, "p50"), Series(latency, 3, "p99")], Logarithmic: true),
                new BarChart("PUSH/PULL throughput", "msg/s", [.. pushPull.Select(Label)], [Series(pushPull, 2, "msg/s")], Logarithmic: true),
                new BarChart("ROUTER/DEALER throughput", "msg/s", [.. routerDealer.Select(Label)], [Series(routerDealer, 2, "msg/s")], Logarithmic: true),
                new BarChart("PUSH/PULL throughput in bytes", "MB/s", [.. pushPull.Select(Label)], [Series(pushPull, 3, "MB/s")], Logarithmic: true),
                new BarChart("Allocated per message, PUSH/PULL (whole process; C and Net.Zmq not measured)", "B/msg", [.. measured.Select(Label)], [Series(measured, 9, "alloc B/msg")], Logarithmic: true),
            ]);
    }

    /// <summary>Runs <paramref name="run"/> with contexts created on the chosen reactor, running woken continuations inline or on the thread pool.</summary>
    private static T WithReactor<T>(bool portable, bool inline, Func<T> run)
    {
        AppContext.SetSwitch(PortableReactorSwitch, portable);
        AppContext.SetSwitch(InlineCompletionsSwitch, inline);
        try
        {
            return run();
        }
        finally
        {
            AppContext.SetSwitch(PortableReactorSwitch, false);
            AppContext.SetSwitch(InlineCompletionsSwitch, true);
        }
    }

    /// <summary>
    /// PUSH/PULL with <c>SendAsync</c> and <c>ReceiveAsync</c> on both ends, so that every wait on the high-water mark
    /// or an empty queue goes through the reactor; otherwise the workload of <see cref="ThroughputRun"/>.
    /// </summary>
    private static ThroughputRun.Result AsyncThroughput(int size, int count, int warmUp)
    {
        using var context = new ZmqContext();
        using var pull = context.CreateSocket(ZmqSocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        var endpoint = pull.LastEndpoint;
        var sender = Task.Run(async () =>
        {
            using var push = context.CreateSocket(ZmqSocketType.Push);
            push.Connect(endpoint);
            var payload = new byte[size];
            for (var i = 0; i < warmUp + count; i++)
            {
                await push.SendAsync(payload).ConfigureAwait(false);
            }
        });

        var (seconds, faults, allocated) = ReceiveAllAsync(pull, warmUp, count).GetAwaiter().GetResult();
        sender.GetAwaiter().GetResult();
        return new ThroughputRun.Result((count - 1) / seconds, (double)allocated / count, (double)faults / count);
    }

    /// <summary>
    /// Receives <paramref name="warmUp"/> uncounted messages, then <paramref name="count"/>; the clock runs from the first
    /// counted to the last: its seconds, and the minor page faults and process-wide bytes allocated while it ran.
    /// </summary>
    private static async Task<(double Seconds, long Faults, long Allocated)> ReceiveAllAsync(ZmqSocket pull, int warmUp, int count)
    {
        using var message = new ZmqMessage();
        for (var i = 0; i <= warmUp; i++)
        {
            await pull.ReceiveAsync(message).ConfigureAwait(false);
        }

        var faults = PageFaults.Count();
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        for (var i = 1; i < count; i++)
        {
            await pull.ReceiveAsync(message).ConfigureAwait(false);
        }

        var seconds = clock.Elapsed.TotalSeconds;
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        return (seconds, PageFaults.Count() - faults, allocated);
    }

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
