using HdrHistogram;

namespace Berth.Cli.Load;

/// <summary>
/// What the echoes received on one thread add up to. Echoes arrive on the client's few event-loop threads, so one
/// recorder per thread, not per session, holds the histogram (about 37 KB): ten thousand sessions cost no more than
/// one, and recording takes no lock and shares no cache line.
/// </summary>
/// <remarks>
/// Echoes of one delivered batch share one clock reading, and a closed loop's requests sent in one batch share their
/// due time, so a batch's round trips are often the same value back to back: a run of equal values is recorded once,
/// with its count, when a different value ends it. The histogram holds the same counts; it takes one record per run
/// instead of one per echo (recording was a share of the closed loop's profile).
/// </remarks>
internal sealed class LoadRecorder
{
    private readonly LongHistogram _latency = LatencyRecording.Create();
    private long _echoes;
    private long _runValue;
    private long _runCount;

    /// <summary>Echoes received during the measurement window.</summary>
    public long Messages { get; private set; }

    /// <summary>Body bytes of those echoes.</summary>
    public long Bytes { get; private set; }

    /// <summary>Every echo received, warm-up included, read by the progress display.</summary>
    public long Echoes => Volatile.Read(ref _echoes);

    public void Echoed(int size, long nanoseconds, bool measuring)
    {
        Volatile.Write(ref _echoes, _echoes + 1);
        if (!measuring)
        {
            return;
        }

        Messages++;
        Bytes += size;
        if (nanoseconds == _runValue && _runCount > 0)
        {
            _runCount++;
            return;
        }

        RecordRun();
        (_runValue, _runCount) = (nanoseconds, 1);
    }

    /// <summary>The round trips of the window; call once the sessions are closed, since it records the last run.</summary>
    public LongHistogram CompleteLatency()
    {
        RecordRun();
        return _latency;
    }

    private void RecordRun()
    {
        if (_runCount > 0)
        {
            _latency.Record(_runValue, _runCount);
            _runCount = 0;
        }
    }
}
