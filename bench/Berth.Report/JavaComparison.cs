namespace Berth.Report;

/// <summary>
/// Puts the C# and Java 17 rows that do the same work side by side, per size, in nanoseconds per
/// operation. The Java rows are found by their names in the Java program's tables.
/// </summary>
internal static class JavaComparison
{
    private static readonly string[] Sizes = ["64", "1024", "65536", "1048576"];

    public static IEnumerable<(string FileName, ChartData Chart)> Charts(IReadOnlyList<BenchmarkResult> results, IReadOnlyList<ExtraTable> javaTables)
    {
        var send = Build("send: C# vs Java 17, per call", results, javaTables,
            [("C# copy to reused native + call", "NativeSendBenchmarks", "CopyToReusedNative"),
             ("C# pinned (fixed), no copy", "NativeSendBenchmarks", "PinnedFixed"),
             ("C# data already native", "NativeSendBenchmarks", "AlreadyNative"),
             ("C# NativeMemory.Alloc + copy + call + free", "NativeSendBenchmarks", "AllocateCopyFree")],
            [("Java heap → reused segment + downcall", "send: heap -> reused segment + downcall"),
             ("Java data already native", "send: data already native")]);
        var transform = Build("transform (XOR in place): C# vs Java 17, per call", results, javaTables,
            [("C# copy in + call + copy out", "NativeTransformBenchmarks", "CopyInCopyOut"),
             ("C# pinned (fixed), no copy", "NativeTransformBenchmarks", "PinnedFixed"),
             ("C# data already native", "NativeTransformBenchmarks", "AlreadyNative")],
            [("Java copy in + downcall + copy out", "transform: copy in + downcall + copy out"),
             ("Java data already native", "transform: data already native")]);
        var copy = Build("heap → native copy: C# vs Java 17, per copy", results, javaTables,
            [("C# Span.CopyTo into reused native", "ManagedToNativeCopyBenchmarks", "SpanCopyTo"),
             ("C# Marshal.Copy into reused native", "ManagedToNativeCopyBenchmarks", "MarshalCopy")],
            [("Java heap → reused segment", "Heap -> reused segment"),
             ("Java heap → reused DirectByteBuffer", "Heap -> reused DirectByteBuffer"),
             ("Java heap → fresh segment", "Heap -> fresh segment (confined scope)"),
             ("Java heap → fresh DirectByteBuffer", "Heap -> fresh DirectByteBuffer")]);
        return new[] { ("csharp-vs-java-send", send), ("csharp-vs-java-transform", transform), ("csharp-vs-java-copy", copy) }
            .Where(c => c.Item2 is not null)
            .Select(c => (c.Item1, c.Item2!));
    }

    private static ChartData? Build(
        string title,
        IReadOnlyList<BenchmarkResult> results,
        IReadOnlyList<ExtraTable> javaTables,
        IReadOnlyList<(string Label, string Type, string Method)> csharp,
        IReadOnlyList<(string Label, string Row)> java)
    {
        var groups = new List<ChartGroup>();
        for (var i = 0; i < Sizes.Length; i++)
        {
            var bars = new List<ChartBar>();
            foreach (var (label, type, method) in csharp)
            {
                var result = results.FirstOrDefault(r => r.Type == type && r.Method == method && r.Parameters.Any(p => p.Key == "Size" && p.Value == Sizes[i]));
                if (result is not null)
                {
                    bars.Add(new ChartBar(label, result.MeanNs, false));
                }
            }

            foreach (var (label, rowName) in java)
            {
                var row = javaTables.SelectMany(t => t.Rows).FirstOrDefault(r => r.Count > i + 1 && r[0] == rowName);
                if (row is not null && Units.ParseLeadingNumber(row[i + 1]) is { } value)
                {
                    bars.Add(new ChartBar(label, value, false));
                }
            }

            if (bars.Count > 0)
            {
                groups.Add(new ChartGroup(Units.SizeParameter(Sizes[i]), bars));
            }
        }

        return groups.Count > 0 ? new ChartData(title, groups, Units.Time, Units.TimeTick, "time per operation") : null;
    }
}
