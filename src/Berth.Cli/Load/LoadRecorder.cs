using HdrHistogram;

namespace Berth.Cli.Load;

/// <summary>
/// What the echoes received on one thread add up to. Echoes arrive on the client's few event-loop threads, so one
/// recorder per thread, not per session, holds the histogram (about 37 KB): ten thousand sessions cost no more than
/// one, and recording takes no lock and shares no cache line.
/// </summary>
internal sealed class LoadRecorder
{
    public LongHistogram Latency { get; } = LatencyRecording.Create();

    /// <summary>Echoes received during the measurement window.</summary>
    public long Messages { get; private set; }

    /// <summary>Body bytes of those echoes.</summary>
    public long Bytes { get; private set; }

    /// <summary>Every echo received, warm-up included, read by the progress display.</summary>
    public long Echoes => Volatile.Read(ref _echoes);

    private long _echoes;

    public void Echoed(int size, long nanoseconds, bool measuring)
    {
        Volatile.Write(ref _echoes, _echoes + 1);
        if (measuring)
        {
            Latency.Record(nanoseconds);
            Messages++;
            Bytes += size;
        }
    }
}
