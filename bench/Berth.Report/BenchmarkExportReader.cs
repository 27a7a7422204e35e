using System.Globalization;
using System.Text.Json;

namespace Berth.Report;

/// <summary>
/// Reads BenchmarkDotNet's full JSON exports (<c>*-report-full*.json</c>). Statistics that
/// BenchmarkDotNet could not compute (a dry run has no confidence interval) are written as empty
/// strings, so every number is read leniently.
/// </summary>
internal static class BenchmarkExportReader
{
    public static (HostInfo? Host, List<BenchmarkResult> Results) ReadDirectory(string directory)
    {
        HostInfo? host = null;
        var results = new List<BenchmarkResult>();
        if (!Directory.Exists(directory))
        {
            return (host, results);
        }

        foreach (var file in Directory.EnumerateFiles(directory, "*-report-full*.json").Order(StringComparer.Ordinal))
        {
            using var document = JsonDocument.Parse(File.ReadAllText(file));
            host ??= ReadHost(document.RootElement.GetProperty("HostEnvironmentInfo"));
            results.AddRange(document.RootElement.GetProperty("Benchmarks").EnumerateArray().Select(ReadBenchmark));
        }

        return (host, results);
    }

    private static HostInfo ReadHost(JsonElement host) => new(
        Text(host, "OsVersion"),
        Text(host, "ProcessorName"),
        (int)(Number(host, "PhysicalCoreCount") ?? 0),
        (int)(Number(host, "LogicalCoreCount") ?? 0),
        Text(host, "RuntimeVersion"),
        Text(host, "BenchmarkDotNetVersion"));

    private static BenchmarkResult ReadBenchmark(JsonElement benchmark)
    {
        var statistics = benchmark.GetProperty("Statistics");
        var memory = benchmark.TryGetProperty("Memory", out var m) ? m : default;
        var confidence = statistics.TryGetProperty("ConfidenceInterval", out var c) ? c : default;
        return new BenchmarkResult(
            Text(benchmark, "Namespace"),
            Text(benchmark, "Type"),
            Text(benchmark, "Method"),
            ParseParameters(Text(benchmark, "Parameters")),
            Number(statistics, "Mean") ?? double.NaN,
            confidence.ValueKind == JsonValueKind.Object ? Number(confidence, "Margin") : null,
            Number(statistics, "StandardDeviation"),
            memory.ValueKind == JsonValueKind.Object ? (long?)Number(memory, "BytesAllocatedPerOperation") : null,
            JobOf(Text(benchmark, "DisplayInfo")));
    }

    private static List<KeyValuePair<string, string>> ParseParameters(string text) =>
        text.Split(", ", StringSplitOptions.RemoveEmptyEntries)
            .Select(part => part.Split('=', 2))
            .Select(pair => KeyValuePair.Create(pair[0], pair.Length > 1 ? pair[1] : ""))
            .ToList();

    // DisplayInfo reads "Type.Method: Job(settings) [parameters]".
    private static string JobOf(string displayInfo)
    {
        var start = displayInfo.IndexOf(": ", StringComparison.Ordinal);
        if (start < 0)
        {
            return "";
        }

        var job = displayInfo[(start + 2)..];
        var parameters = job.LastIndexOf(" [", StringComparison.Ordinal);
        return parameters >= 0 ? job[..parameters] : job;
    }

    private static string Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() ?? "" : "";

    private static double? Number(JsonElement element, string name)
    {
        if (!element.TryGetProperty(name, out var value))
        {
            return null;
        }

        return value.ValueKind switch
        {
            JsonValueKind.Number => value.GetDouble(),
            JsonValueKind.String when double.TryParse(value.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) => parsed,
            _ => null,
        };
    }
}
