namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// Runs the same work on the calling thread and on one dedicated thread at the same moment, so
/// every invocation of a contended benchmark really overlaps. A thread-pool task started per
/// invocation may not be running yet when the caller's share is already done, which measures no
/// contention at all. Both sides spin rather than block: waking a blocked thread would cost more
/// than the work.
/// </summary>
internal sealed class TwoThreadRunner : IDisposable
{
    private readonly Thread _worker;
    private Func<long>? _work;
    private long _result;
    private int _requested;
    private int _started;
    private int _finished;
    private volatile bool _stopping;

    public TwoThreadRunner()
    {
        _worker = new Thread(WorkerLoop) { IsBackground = true, Name = "contending worker" };
        _worker.Start();
    }

    public long Run(Func<long> work)
    {
        _work = work;
        var generation = Interlocked.Increment(ref _requested);
        var spinner = new SpinWait();
        while (Volatile.Read(ref _started) != generation)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
        }

        var mine = work();
        spinner.Reset();
        while (Volatile.Read(ref _finished) != generation)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
        }

        return mine + _result;
    }

    public void Dispose()
    {
        _stopping = true;
        _worker.Join();
    }

    private void WorkerLoop()
    {
        var seen = 0;
        var spinner = new SpinWait();
        while (!_stopping)
        {
            var generation = Volatile.Read(ref _requested);
            if (generation == seen)
            {
                spinner.SpinOnce(sleep1Threshold: -1);
                continue;
            }

            spinner.Reset();
            seen = generation;
            Volatile.Write(ref _started, generation);
            _result = _work!();
            Volatile.Write(ref _finished, generation);
        }
    }
}
