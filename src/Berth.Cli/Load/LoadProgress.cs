namespace Berth.Cli.Load;

/// <summary>Counters the workers bump once per received batch, read by the progress display.</summary>
internal sealed class LoadProgress
{
    private long _messages;
    private long _errors;

    public long Messages => Volatile.Read(ref _messages);

    public long Errors => Volatile.Read(ref _errors);

    public void Completed(int messages) => Interlocked.Add(ref _messages, messages);

    public void Failed() => Interlocked.Increment(ref _errors);
}
