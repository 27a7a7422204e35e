using System.Diagnostics;
using HdrHistogram;

namespace Berth.Benchmarks.Calls;

/// <summary>
/// Round-trip times of every call, kept apart by phase: warm-up, measured window, then nothing once the window ends.
/// Each thread records into its own histograms (made the first time it records, which the warm-up normally sees), so
/// recording neither locks nor allocates; the totals are merged once the calls have stopped.
/// </summary>
internal sealed class CallRecorder
{
    private const int WarmUp = 0;
    private const int Measured = 1;
    private const int Over = 2;
    private static readonly long LongestTicks = Stopwatch.Frequency * 60;

    private readonly ThreadLocal<LongHistogram[]> _histograms =
        new(static () => [new LongHistogram(LongestTicks, 3), new LongHistogram(LongestTicks, 3)], trackAllValues: true);

    private volatile int _phase = WarmUp;
    private volatile bool _stopping;
    private int _errors;
    private string? _firstError;

    /// <summary>True once the calls should stop: each loop ends after its call in flight.</summary>
    public bool Stopping => _stopping;

    public int Errors => Volatile.Read(ref _errors);

    public string? FirstError => Volatile.Read(ref _firstError);

    public void StartWindow() => _phase = Measured;

    public void EndWindow() => _phase = Over;

    public void Stop() => _stopping = true;

    public void Record(long startTimestamp)
    {
        var phase = _phase;
        if (phase != Over)
        {
            _histograms.Value![phase].RecordValue(Math.Max(1, Stopwatch.GetTimestamp() - startTimestamp));
        }
    }

    /// <summary>A failed call ends its loop; the driver reports the count and the first message.</summary>
    public void Fail(Exception exception)
    {
        Interlocked.CompareExchange(ref _firstError, $"{exception.GetType().Name}: {exception.Message}", null);
        Interlocked.Increment(ref _errors);
    }

    /// <summary>The measured window's calls as one histogram, in <see cref="Stopwatch"/> ticks.</summary>
    public LongHistogram MeasuredCalls()
    {
        var total = new LongHistogram(LongestTicks, 3);
        foreach (var histograms in _histograms.Values)
        {
            total.Add(histograms[Measured]);
        }

        return total;
    }
}
