using System.Numerics;

namespace Berth.Cli.Load;

/// <summary>
/// Log-linear latency histogram in the style of HdrHistogram: values below 128 ns get a bucket each; above, every
/// power of two is split into 64 linear buckets, so a recorded value is off by less than 1/64 (1.6 %). Recording is
/// an index computation and an increment; one histogram per connection, merged at the end, so nothing is shared.
/// </summary>
internal sealed class LatencyHistogram
{
    private const int SubBucketBits = 6;
    private const int SubBuckets = 1 << SubBucketBits;
    private const int LinearLimit = 2 * SubBuckets;

    // Values up to 2^42 ns (about 73 minutes) fit.
    private readonly long[] _counts = new long[LinearLimit + ((42 - SubBucketBits) * SubBuckets)];

    public long Count { get; private set; }

    public long Max { get; private set; }

    public void Record(long nanoseconds)
    {
        var value = Math.Max(0, nanoseconds);
        _counts[Math.Min(IndexOf(value), _counts.Length - 1)]++;
        Count++;
        Max = Math.Max(Max, value);
    }

    public void Add(LatencyHistogram other)
    {
        for (var i = 0; i < _counts.Length; i++)
        {
            _counts[i] += other._counts[i];
        }

        Count += other.Count;
        Max = Math.Max(Max, other.Max);
    }

    /// <summary>The value at or below which <paramref name="percentile"/> % of the recorded values lie (upper bucket bound).</summary>
    public long Percentile(double percentile)
    {
        if (Count == 0)
        {
            return 0;
        }

        var rank = (long)Math.Ceiling(percentile / 100 * Count);
        long seen = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= Math.Max(rank, 1))
            {
                return Math.Min(UpperBound(i), Max);
            }
        }

        return Max;
    }

    private static int IndexOf(long value)
    {
        if (value < LinearLimit)
        {
            return (int)value;
        }

        var shift = 63 - BitOperations.LeadingZeroCount((ulong)value) - SubBucketBits;
        return LinearLimit + ((shift - 1) * SubBuckets) + (int)((value >> shift) - SubBuckets);
    }

    private static long UpperBound(int index)
    {
        if (index < LinearLimit)
        {
            return index;
        }

        var shift = ((index - LinearLimit) / SubBuckets) + 1;
        var sub = ((index - LinearLimit) % SubBuckets) + SubBuckets;
        return ((long)(sub + 1) << shift) - 1;
    }
}
