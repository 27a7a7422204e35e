using System.Collections.Concurrent;

namespace Berth.Cli.Load;

/// <summary>Counters the workers bump once per received batch, read by the progress display, and each error by name.</summary>
internal sealed class LoadProgress
{
    private readonly ConcurrentDictionary<string, int> _errors = new(StringComparer.Ordinal);
    private long _messages;
    private long _errorCount;

    public long Messages => Volatile.Read(ref _messages);

    public long Errors => Volatile.Read(ref _errorCount);

    public void Completed(int messages) => Interlocked.Add(ref _messages, messages);

    /// <summary>Counts one failed connection under a reason a person can act on ("connection reset by the server").</summary>
    public void Failed(string reason)
    {
        _errors.AddOrUpdate(reason, 1, (_, count) => count + 1);
        Interlocked.Increment(ref _errorCount);
    }

    /// <summary>Each distinct error with how many connections it ended, most frequent first.</summary>
    public IReadOnlyList<(string Reason, int Count)> ErrorsByReason() =>
        [.. _errors.Select(e => (e.Key, e.Value)).OrderByDescending(e => e.Item2).ThenBy(e => e.Item1, StringComparer.Ordinal)];
}
