using System.Collections.Concurrent;

namespace Berth.Cli.Load;

/// <summary>
/// The run's counters: echoes per receiving thread (each thread bumps only its own recorder), read by the progress
/// display and merged at the end, and each error by name.
/// </summary>
internal sealed class LoadProgress
{
    private readonly ConcurrentDictionary<string, int> _errors = new(StringComparer.Ordinal);
    private readonly ThreadLocal<LoadRecorder> _recorders;
    private readonly Lock _adding = new();
    // Every recorder made so far, replaced whole when a thread makes its first: the progress line reads the total four
    // times a second during the measurement window, and ThreadLocal.Values builds a new list on every call.
    private LoadRecorder[] _all = [];
    private long _errorCount;

    public LoadProgress() => _recorders = new(NewRecorder);

    /// <summary>Echoes received so far, warm-up included; allocates nothing.</summary>
    public long Messages
    {
        get
        {
            long messages = 0;
            foreach (var recorder in Volatile.Read(ref _all))
            {
                messages += recorder.Echoes;
            }

            return messages;
        }
    }

    public long Errors => Volatile.Read(ref _errorCount);

    /// <summary>The calling thread's recorder.</summary>
    public LoadRecorder Recorder => _recorders.Value!;

    /// <summary>Every thread's recorder; read their totals only once the sessions are closed.</summary>
    public IReadOnlyList<LoadRecorder> Recorders => Volatile.Read(ref _all);

    /// <summary>Counts one failed connection under a reason a person can act on ("connection reset by the server").</summary>
    public void Failed(string reason)
    {
        _errors.AddOrUpdate(reason, 1, (_, count) => count + 1);
        Interlocked.Increment(ref _errorCount);
    }

    /// <summary>Each distinct error with how many connections it ended, most frequent first.</summary>
    public IReadOnlyList<(string Reason, int Count)> ErrorsByReason() =>
        [.. _errors.Select(e => (e.Key, e.Value)).OrderByDescending(e => e.Item2).ThenBy(e => e.Item1, StringComparer.Ordinal)];

    private LoadRecorder NewRecorder()
    {
        var recorder = new LoadRecorder();
        lock (_adding)
        {
            Volatile.Write(ref _all, [.. _all, recorder]);
        }

        return recorder;
    }
}
