using System.Diagnostics;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// The timers of one <see cref="EpollLoop"/>. Any thread attaches (under a lock, once per timer); the loop's thread
/// takes them in at its next turn and alone runs and re-arms them, so firing takes no lock and allocates nothing.
/// </summary>
internal sealed class LoopTimers
{
    private readonly Lock _lock = new();
    private readonly List<LoopTimer> _attached = [];
    private readonly List<LoopTimer> _active = [];
    private volatile bool _anyAttached;

    /// <summary>On the loop's thread: the earliest due time of the active timers, or <see cref="LoopTimer.Never"/>.</summary>
    public long NextDue { get; private set; } = LoopTimer.Never;

    /// <summary>From any thread: <paramref name="timer"/> first falls due at <paramref name="due"/>; the caller wakes the loop.</summary>
    public void Attach(LoopTimer timer, long due)
    {
        lock (_lock)
        {
            timer.Due = due;
            _attached.Add(timer);
            _anyAttached = true;
        }
    }

    /// <summary>
    /// On the loop's thread: takes in the timers attached since the last turn and runs those due by now; true when at
    /// least one ran.
    /// </summary>
    public bool Run()
    {
        if (_anyAttached)
        {
            TakeAttached();
        }

        if (_active.Count == 0)
        {
            return false;
        }

        var now = Stopwatch.GetTimestamp();
        if (now < NextDue)
        {
            return false;
        }

        var next = LoopTimer.Never;
        for (var i = _active.Count - 1; i >= 0; i--)
        {
            var timer = _active[i];
            if (timer.Due <= now)
            {
                timer.Due = Fire(timer, now);
            }

            if (timer.Due == LoopTimer.Never)
            {
                _active[i] = _active[^1];
                _active.RemoveAt(_active.Count - 1);
                continue;
            }

            next = Math.Min(next, timer.Due);
        }

        NextDue = next;
        return true;
    }

    private static long Fire(LoopTimer timer, long now)
    {
        try
        {
            return timer.OnDue(now);
        }
        catch (Exception e)
        {
            // The loop serves every socket on its thread: a failing timer loses itself, not the loop.
            timer.OnFailed(e);
            return LoopTimer.Never;
        }
    }

    private void TakeAttached()
    {
        lock (_lock)
        {
            foreach (var timer in _attached)
            {
                _active.Add(timer);
                NextDue = Math.Min(NextDue, timer.Due);
            }

            _attached.Clear();
            _anyAttached = false;
        }
    }
}
