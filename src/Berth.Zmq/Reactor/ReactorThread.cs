namespace Berth.Zmq;

/// <summary>
/// The thread a readiness reactor waits on, and what keeps inline continuations safe on it. When woken continuations
/// run inline, a <see cref="ReactorWatchdog"/> hands the waiting to a new thread if one continuation holds this one;
/// the new thread wakes every registration once before it waits, because the held thread may have taken readiness it
/// never delivered, and a wait woken without cause checks its socket's events and waits again.
/// </summary>
internal abstract class ReactorThread
{
    private readonly bool _inline;
    private readonly string _name;
    private ReactorWatchdog? _watchdog;
    private volatile Thread _thread;
    private volatile bool _stopping;

    /// <param name="inline">True when woken continuations run on the reactor thread, which then needs a watchdog.</param>
    /// <param name="name">The thread's name, kept by every thread that takes over.</param>
    protected ReactorThread(bool inline, string name)
    {
        _inline = inline;
        _name = name;
        _thread = new Thread(Run) { IsBackground = true, Name = name };
    }

    public bool OnReactorThread => Thread.CurrentThread == _thread;

    /// <summary>Guards the registrations, and the hand-over of the waiting to a new thread.</summary>
    protected Lock Sync { get; } = new();

    protected bool Stopping => _stopping;

    /// <summary>Starts waiting; called once the derived reactor has set up what <see cref="Run"/> uses.</summary>
    protected void Start() => _thread.Start();

    /// <summary>Marks the reactor stopping and stops the watchdog; false when it already was stopping.</summary>
    protected bool BeginStop()
    {
        lock (Sync)
        {
            if (_stopping)
            {
                return false;
            }

            _stopping = true;
        }

        Interlocked.Exchange(ref _watchdog, null)?.Dispose();
        return true;
    }

    /// <summary>Waits for whichever thread is waiting now to notice <see cref="Stopping"/> and end.</summary>
    protected void JoinThread() => _thread.Join();

    /// <summary>The thread's loop: waits for readiness and delivers it until <see cref="Stopping"/>.</summary>
    protected abstract void Run();

    /// <summary>Every registered wait, read under <see cref="Sync"/>.</summary>
    protected abstract ZmqReadiness[] Registered();

    /// <summary>Wakes one wait; false when a continuation held this thread so long that another took over the waiting.</summary>
    protected bool Deliver(ZmqReadiness readiness)
    {
        if (!_inline)
        {
            readiness.Signal();
            return true;
        }

        var watchdog = Volatile.Read(ref _watchdog) ?? StartWatchdog();
        var ticket = watchdog.Enter(readiness);
        readiness.Signal();
        return watchdog.Leave(ticket);
    }

    /// <summary>On the reactor thread at the first wake, so that a context that never waits starts no watchdog.</summary>
    private ReactorWatchdog StartWatchdog()
    {
        var watchdog = new ReactorWatchdog(TakeOver);
        Interlocked.Exchange(ref _watchdog, watchdog);

        // BeginStop may have looked for the watchdog before it was there; both sides exchange, so one sees the other.
        if (_stopping)
        {
            watchdog.Dispose();
        }

        return watchdog;
    }

    /// <summary>Called by the watchdog when a continuation holds the reactor thread: a new thread takes over the waiting.</summary>
    private void TakeOver()
    {
        lock (Sync)
        {
            if (_stopping)
            {
                return;
            }

            _thread = new Thread(RunAfterTakeOver) { IsBackground = true, Name = _name };
            _thread.Start();
        }
    }

    private void RunAfterTakeOver()
    {
        ZmqReadiness[] registered;
        lock (Sync)
        {
            registered = Registered();
        }

        foreach (var readiness in registered)
        {
            if (!Deliver(readiness))
            {
                return;
            }
        }

        Run();
    }
}
