using System.Text.Json;

namespace Berth.Cli.Compare;

/// <summary>The JSON line the C load generator prints when its measured window closes.</summary>
internal sealed record LoadOutcome(
    long Messages,
    double Seconds,
    double MessagesPerSecond,
    double MegabytesPerSecond,
    double P50Microseconds,
    double P99Microseconds,
    double P999Microseconds,
    long Errors)
{
    public static LoadOutcome Parse(string line)
    {
        using var json = JsonDocument.Parse(line);
        var root = json.RootElement;
        return new LoadOutcome(
            root.GetProperty("messages").GetInt64(),
            root.GetProperty("seconds").GetDouble(),
            root.GetProperty("msg_per_s").GetDouble(),
            root.GetProperty("mb_per_s").GetDouble(),
            root.GetProperty("p50_us").GetDouble(),
            root.GetProperty("p99_us").GetDouble(),
            root.GetProperty("p999_us").GetDouble(),
            root.GetProperty("errors").GetInt64());
    }
}
