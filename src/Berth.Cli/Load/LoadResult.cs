using HdrHistogram;

namespace Berth.Cli.Load;

/// <summary>What a load run measured during its measurement window (warm-up excluded).</summary>
internal sealed record LoadResult(LoadSettings Settings, long Messages, long Bytes, long Errors, TimeSpan Elapsed, LongHistogram Latency, IReadOnlyList<(string Reason, int Count)> ErrorsByReason)
{
    /// <summary>Managed heap bytes per connection while connected and idle (see <see cref="LoadSessions"/>).</summary>
    public double IdleBytesPerConnection { get; init; }

    /// <summary>Resident memory per connection while connected and idle.</summary>
    public double IdleResidentBytesPerConnection { get; init; }

    public double MessagesPerSecond => Messages / Elapsed.TotalSeconds;

    /// <summary>Body bytes echoed per second, both directions not counted twice.</summary>
    public double MegabytesPerSecond => Bytes / Elapsed.TotalSeconds / 1e6;

    public double P50Microseconds => Percentile(50);

    public double P99Microseconds => Percentile(99);

    public double P999Microseconds => Percentile(99.9);

    public double MaxMicroseconds => Latency.TotalCount == 0 ? 0 : Latency.GetMaxValue() / 1e3;

    /// <summary>The round-trip time at <paramref name="percentile"/>, in microseconds; 0 when nothing was echoed.</summary>
    public double Percentile(double percentile) => Latency.TotalCount == 0 ? 0 : Latency.GetValueAtPercentile(percentile) / 1e3;
}
