using HdrHistogram;

namespace Berth.Cli.Load;

/// <summary>
/// Round-trip times in nanoseconds, in an HdrHistogram with two significant digits (1 % resolution) up to an hour:
/// about 37 KB per connection, recorded without allocation, merged at the end of a run.
/// </summary>
internal static class LatencyRecording
{
    /// <summary>The largest value recorded; a longer round trip is recorded as this.</summary>
    public const long HighestNanoseconds = 3_600_000_000_000;

    public static LongHistogram Create() => new(1, HighestNanoseconds, 2);

    public static void Record(this LongHistogram histogram, long nanoseconds) =>
        histogram.RecordValue(Math.Clamp(nanoseconds, 1, HighestNanoseconds));

    /// <summary>Records <paramref name="count"/> round trips of <paramref name="nanoseconds"/> each.</summary>
    public static void Record(this LongHistogram histogram, long nanoseconds, long count) =>
        histogram.RecordValueWithCount(Math.Clamp(nanoseconds, 1, HighestNanoseconds), count);
}
