using System.Globalization;
using Berth.Benchmarks.Messages;
using Berth.Results;

namespace Berth.Report;

/// <summary>
/// <c>Berth.Report codecs --run FILE --results DIR [--results DIR...] --data FILE --note TEXT...</c>: turns repeated
/// BenchmarkDotNet runs of <see cref="FixedMessageBenchmarks"/> and <see cref="StringArrayMessageBenchmarks"/> (one
/// results folder per run, each run covering every method) into a result file: per method the runs' ns/op and B/op, and
/// the targets of the generated code judged on per-run ratios (<see cref="TargetVerdict.MedianOfRounds"/>), since
/// the methods of one run ran under the same conditions.
/// </summary>
internal static class CodecComparison
{
    private const string HandWritten = nameof(FixedMessageBenchmarks.HandWritten);
    private const string Generated = nameof(FixedMessageBenchmarks.Generated);
    private const string Protobuf = nameof(FixedMessageBenchmarks.Protobuf);
    private const string MemoryPack = nameof(FixedMessageBenchmarks.MemoryPack);
    private const double HandWrittenTarget = 1.1;
    private const double MemoryPackBlittableTarget = 1.1;

    public const string Usage = "       Berth.Report codecs --run FILE --results DIR [--results DIR...] --data FILE [--note TEXT...]";

    private static readonly long ProfileBytes = OwnBytesOfProfile();

    private static readonly Message[] Messages =
    [
        new("five-field struct", nameof(FixedMessageBenchmarks), BlittableToMemoryPack: true, 0,
            "Position, a struct of an int, three floats and a long: no object of its own"),
        new("string and array", nameof(StringArrayMessageBenchmarks), BlittableToMemoryPack: false, ProfileBytes,
            $"Profile, a class: the object, its {StringArrayMessageBenchmarks.ProfileName.Length}-character string and its array of {StringArrayMessageBenchmarks.ProfileScoreCount} ints, {ProfileBytes} bytes together on this runtime"),
    ];

    public static int Run(IReadOnlyList<string> args)
    {
        var runs = new List<string>();
        var notes = new List<string>();
        string? runFile = null, data = null;
        for (var i = 0; i + 1 < args.Count; i += 2)
        {
            switch (args[i])
            {
                case "--run": runFile = args[i + 1]; break;
                case "--results": runs.Add(args[i + 1]); break;
                case "--data": data = args[i + 1]; break;
                case "--note": notes.Add(args[i + 1]); break;
                default: throw new ArgumentException($"unknown option {args[i]}\n{Usage}");
            }
        }

        if (args.Count % 2 != 0 || runFile is null || data is null || runs.Count == 0)
        {
            throw new ArgumentException(Usage);
        }

        var results = runs.Select(run => BenchmarkExportReader.ReadDirectory(run).Results).ToList();
        var tables = new List<ResultTable> { MethodTable(results, notes), TargetTable(results), AllocationTable(results) };
        ResultFileWriter.Write(data, new ResultFile(ResultFileReader.Read(runFile).Provenance, tables));
        Console.WriteLine($"wrote {data}: {runs.Count} run(s) of {Messages.Length} messages");
        return 0;
    }

    private static ResultTable MethodTable(List<List<BenchmarkResult>> runs, List<string> notes)
    {
        var rows = new List<IReadOnlyList<object?>>();
        foreach (var message in Messages)
        {
            foreach (var method in runs.SelectMany(run => run).Where(r => r.Type == message.Type).Select(r => r.Method).Distinct())
            {
                var times = PerRun(runs, message, method, r => r.MeanNs);
                var bytes = PerRun(runs, message, method, r => r.AllocatedBytes ?? double.NaN);
                var ratios = Ratios(runs, message, method, HandWritten);
                rows.Add([message.Name, method, Range(times, CellFormat.Ns), Range(bytes, CellFormat.Bytes), ratios.Count == 0 ? null : ResultRange.Of(ratios, CellFormat.Ratio).Median]);
            }
        }

        return new ResultTable(
            "methods",
            "Serialize and deserialize one message, each method once per run: the runs' median (min-max)",
            [new("message", CellFormat.Text), new("method", CellFormat.Text), new("time per operation", CellFormat.Range),
             new("allocated per operation", CellFormat.Range), new("median ratio to HandWritten", CellFormat.Ratio)],
            rows,
            notes);
    }

    private static ResultTable TargetTable(List<List<BenchmarkResult>> runs)
    {
        var rows = new List<IReadOnlyList<object?>>();
        foreach (var message in Messages)
        {
            rows.Add(Target(runs, message, HandWritten, $"at most {HandWrittenTarget:0.0#}x", r => r <= HandWrittenTarget));
            rows.Add(Target(runs, message, Protobuf, "under 1.00x (faster)", r => r < 1));
            rows.Add(message.BlittableToMemoryPack
                ? Target(runs, message, MemoryPack, $"at most {MemoryPackBlittableTarget:0.0#}x", r => r <= MemoryPackBlittableTarget)
                : Target(runs, message, MemoryPack, "under 1.00x (faster)", r => r < 1));
        }

        return new ResultTable(
            "targets",
            "Generated's time over each anchor's, per run",
            [new("message", CellFormat.Text), new("anchor", CellFormat.Text), new("target", CellFormat.Text),
             new("ratio per run", CellFormat.Text), new("median ratio", CellFormat.Ratio), new("verdict", CellFormat.Verdict)],
            rows,
            [$"Each run measures every method once, so a run's ratio compares two methods under the same conditions; a target is met when the median of at least {TargetVerdict.MinimumRounds} runs' ratios and every run's ratio reach it, within noise when only the median does, not met when the median does not."]);
    }

    private static IReadOnlyList<object?> Target(List<List<BenchmarkResult>> runs, Message message, string anchor, string target, Func<double, bool> reaches)
    {
        var ratios = Ratios(runs, message, Generated, anchor);
        return [message.Name, anchor, target, string.Join(" ", ratios.Select(r => r.ToString("0.00", CultureInfo.InvariantCulture) + "x")),
            ratios.Count == 0 ? null : ResultRange.Of(ratios, CellFormat.Ratio).Median, TargetVerdict.MedianOfRounds(ratios, reaches)];
    }

    private static ResultTable AllocationTable(List<List<BenchmarkResult>> runs)
    {
        var rows = new List<IReadOnlyList<object?>>();
        foreach (var message in Messages)
        {
            var bytes = PerRun(runs, message, Generated, r => r.AllocatedBytes ?? double.NaN);
            var range = Range(bytes, CellFormat.Bytes);
            var verdict = range is null ? TargetVerdict.NotMeasured : TargetVerdict.AtMost(new ValueBounds(range.Min, range.Max), message.OwnBytes);
            rows.Add([message.Name, message.OwnObjects, (double)message.OwnBytes, range, verdict]);
        }

        return new ResultTable(
            "allocation",
            "Generated's allocation against the message's own objects",
            [new("message", CellFormat.Text), new("the message's own objects", CellFormat.Text), new("their size", CellFormat.Bytes),
             new("Generated allocates per operation", CellFormat.Range), new("at most their size", CellFormat.Verdict)],
            rows,
            ["Met when every run allocates no more than the message's own objects, which a read has to create; the sizes are measured on the reporting process's runtime."]);
    }

    /// <summary>The method's value in each run that measured it, in run order.</summary>
    private static List<double> PerRun(List<List<BenchmarkResult>> runs, Message message, string method, Func<BenchmarkResult, double> value) =>
        runs.Select(run => run.FirstOrDefault(r => r.Type == message.Type && r.Method == method))
            .Where(r => r is not null)
            .Select(r => value(r!))
            .Where(double.IsFinite)
            .ToList();

    /// <summary>The method's time over the anchor's, in each run that measured both.</summary>
    private static List<double> Ratios(List<List<BenchmarkResult>> runs, Message message, string method, string anchor) =>
        runs.Select(run => (Of: run.FirstOrDefault(r => r.Type == message.Type && r.Method == method), Anchor: run.FirstOrDefault(r => r.Type == message.Type && r.Method == anchor)))
            .Where(pair => pair.Of is not null && pair.Anchor is not null && pair.Anchor.MeanNs > 0)
            .Select(pair => pair.Of!.MeanNs / pair.Anchor!.MeanNs)
            .Where(double.IsFinite)
            .ToList();

    private static ResultRange? Range(List<double> values, CellFormat unit) => values.Count == 0 ? null : ResultRange.Of(values, unit);

    /// <summary>What a read of the string-and-array message must allocate: the object, a copy of its string and its array.</summary>
    private static long OwnBytesOfProfile()
    {
        static Profile Make() => new() { Name = new string(StringArrayMessageBenchmarks.ProfileName.AsSpan()), Scores = new int[StringArrayMessageBenchmarks.ProfileScoreCount] };
        GC.KeepAlive(Make());
        var before = GC.GetAllocatedBytesForCurrentThread();
        var made = Make();
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        GC.KeepAlive(made);
        return allocated;
    }

    private sealed record Message(string Name, string Type, bool BlittableToMemoryPack, long OwnBytes, string OwnObjects);
}
