using System.Diagnostics;

namespace Berth.Zmq;

/// <summary>
/// Keeps a continuation that a readiness reactor runs inline from stalling the context's other sockets. The reactor
/// brackets every wake it delivers with <see cref="Enter"/> and <see cref="Leave"/>; this watchdog's thread looks once
/// per <see cref="Bound"/>, and when the same wake has been running for a whole bound between its looks (so it has
/// held the reactor for at least one bound and at most about two) it takes the reactor's role from the held thread: the socket whose
/// continuation held it is woken through the thread pool from then on, and the reactor starts a new thread that takes
/// over the waiting. The held thread finishes its continuation as a plain thread and ends. A look that spans a
/// garbage-collection pause never counts towards the bound, because the pause stopped the continuation too. While no wake runs for a
/// whole bound the watchdog sleeps until the next <see cref="Enter"/>.
/// </summary>
internal sealed class ReactorWatchdog : IDisposable
{
    /// <summary>How long a look lasts; a continuation holding the reactor is handed off after one to two of them.</summary>
    public static readonly TimeSpan Bound = TimeSpan.FromMilliseconds(10);

    private readonly Action _takeOver;

    /// <summary>Never disposed: a wake may still set it while the watchdog stops, and it holds no OS handle on Linux.</summary>
    private readonly AutoResetEvent _unpark = new(initialState: false);

    /// <summary>Counts wake starts and ends: odd while a wake runs. Whoever moves it from odd to even owns the end.</summary>
    private long _wakes;
    private ZmqReadiness? _running;
    private int _parked;
    private volatile bool _stopping;

    /// <param name="takeOver">Starts a new reactor thread; called on the watchdog's thread after a hand-off.</param>
    public ReactorWatchdog(Action takeOver)
    {
        _takeOver = takeOver;
        new Thread(Watch) { IsBackground = true, Name = "berth-zmq-reactor-watchdog" }.Start();
    }

    /// <summary>The reactor is about to wake <paramref name="readiness"/> on its thread; returns the ticket for <see cref="Leave"/>.</summary>
    public long Enter(ZmqReadiness readiness)
    {
        _running = readiness;
        var ticket = Interlocked.Increment(ref _wakes);
        if (Volatile.Read(ref _parked) != 0 && Interlocked.Exchange(ref _parked, 0) != 0)
        {
            _unpark.Set();
        }

        return ticket;
    }

    /// <summary>The wake returned; false when the watchdog handed the reactor to another thread, which the caller must then leave to it.</summary>
    public bool Leave(long ticket) => Interlocked.CompareExchange(ref _wakes, ticket + 1, ticket) == ticket;

    public void Dispose()
    {
        _stopping = true;
        _unpark.Set();
    }

    private void Watch()
    {
        var last = Volatile.Read(ref _wakes);
        var watched = 0L;
        var watchedSince = 0L;
        var pausedSince = TimeSpan.Zero;
        while (!_stopping)
        {
            Thread.Sleep(Bound);
            var seen = Volatile.Read(ref _wakes);
            if ((seen & 1) == 0)
            {
                if (seen == last)
                {
                    Park(seen);
                    seen = Volatile.Read(ref _wakes);
                }
            }
            else if (seen != watched)
            {
                watched = seen;
                watchedSince = Stopwatch.GetTimestamp();
                pausedSince = GC.GetTotalPauseDuration();
            }
            else if (Stopwatch.GetElapsedTime(watchedSince) - (GC.GetTotalPauseDuration() - pausedSince) >= Bound
                && Interlocked.CompareExchange(ref _wakes, seen + 1, seen) == seen)
            {
                _running?.CompleteOnThreadPool();
                _takeOver();
                seen++;
            }

            last = seen;
        }
    }

    /// <summary>Sleeps until the next wake starts; the interlocked flag and counter make sure one cannot slip past.</summary>
    private void Park(long seen)
    {
        Interlocked.Exchange(ref _parked, 1);
        if (Volatile.Read(ref _wakes) == seen && !_stopping)
        {
            _unpark.WaitOne();
        }

        Interlocked.Exchange(ref _parked, 0);
    }
}
