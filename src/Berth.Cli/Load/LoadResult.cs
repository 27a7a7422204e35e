namespace Berth.Cli.Load;

/// <summary>What a load run measured during its measurement window (warm-up excluded).</summary>
internal sealed record LoadResult(LoadSettings Settings, long Messages, long Bytes, long Errors, TimeSpan Elapsed, LatencyHistogram Latency)
{
    public double MessagesPerSecond => Messages / Elapsed.TotalSeconds;

    /// <summary>Body bytes echoed per second, both directions not counted twice.</summary>
    public double MegabytesPerSecond => Bytes / Elapsed.TotalSeconds / 1e6;

    public double P50Microseconds => Latency.Percentile(50) / 1e3;

    public double P99Microseconds => Latency.Percentile(99) / 1e3;

    public double P999Microseconds => Latency.Percentile(99.9) / 1e3;
}
