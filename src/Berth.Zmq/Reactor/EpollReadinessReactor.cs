using System.Runtime.InteropServices;
using Berth.Interop;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// One thread per context that waits, in <c>epoll_wait</c>, on the <c>ZMQ_FD</c> of every socket with a pending async
/// operation and wakes that operation. It never touches a libzmq socket (they are single-threaded); it only watches
/// the notification descriptors, edge-triggered, which is how libzmq signals them. When it runs continuations inline,
/// a <see cref="ReactorWatchdog"/> moves the waiting to a new thread if one of them holds it.
/// </summary>
internal sealed unsafe class EpollReadinessReactor : IReadinessReactor
{
    private const ulong WakeId = 0;
    private const int MaxEvents = 64;

    private readonly int _epoll;
    private readonly int _wake;
    private readonly Lock _sync = new();
    private readonly bool _inline;
    private ReactorWatchdog? _watchdog;
    private volatile Thread _thread;
    private readonly Dictionary<ulong, ZmqReadiness> _registered = [];
    private ulong _nextId = WakeId + 1;
    private volatile bool _stopping;

    /// <param name="inline">True when woken continuations run on the reactor thread, which then needs a watchdog.</param>
    public EpollReadinessReactor(bool inline)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException("ZmqSocket async operations need Linux epoll");
        }

        _epoll = LinuxEpoll.Create(LinuxEpoll.CloseOnExec);
        _wake = LinuxEvents.EventFd(0, LinuxEpoll.CloseOnExec | LinuxEvents.NonBlocking);
        if (_epoll < 0 || _wake < 0 || LinuxEpoll.Control(_epoll, LinuxEpoll.Add, _wake, LinuxEpoll.In, WakeId) != 0)
        {
            throw new InvalidOperationException($"epoll setup failed: errno {Marshal.GetLastPInvokeError()}");
        }

        _inline = inline;
        _thread = new Thread(Run) { IsBackground = true, Name = "berth-zmq-readiness" };
        _thread.Start();
    }

    public ulong Add(nint fd, ZmqReadiness readiness)
    {
        lock (_sync)
        {
            var id = _nextId++;
            if (LinuxEpoll.Control(_epoll, LinuxEpoll.Add, (int)fd, LinuxEpoll.In | LinuxEpoll.EdgeTriggered, id) != 0)
            {
                throw new InvalidOperationException($"epoll_ctl(ADD, {fd}) failed: errno {Marshal.GetLastPInvokeError()}");
            }

            _registered.Add(id, readiness);
            return id;
        }
    }

    /// <summary>Nothing to do: the descriptor stays in the epoll set, edge-triggered, from <see cref="Add"/> to <see cref="Remove"/>.</summary>
    public void Watch(ulong id)
    {
    }

    public bool OnReactorThread => Thread.CurrentThread == _thread;

    public void Remove(nint fd, ulong id)
    {
        lock (_sync)
        {
            _registered.Remove(id);
            LinuxEpoll.Control(_epoll, LinuxEpoll.Delete, (int)fd, 0, 0);
        }
    }

    public void Dispose()
    {
        lock (_sync)
        {
            if (_stopping)
            {
                return;
            }

            _stopping = true;
        }

        Interlocked.Exchange(ref _watchdog, null)?.Dispose();
        ulong one = 1;
        LinuxEvents.Write(_wake, &one, sizeof(ulong));
        _thread.Join();
        LinuxEvents.Close(_wake);
        LinuxEvents.Close(_epoll);
    }

    private void Run()
    {
        var events = stackalloc byte[MaxEvents * LinuxEpoll.EventSize];
        while (!_stopping)
        {
            var count = LinuxEpoll.Wait(_epoll, events, MaxEvents, -1);
            for (var i = 0; i < count; i++)
            {
                var id = LinuxEpoll.DataAt(events, i);
                ZmqReadiness? readiness;
                lock (_sync)
                {
                    _registered.TryGetValue(id, out readiness);
                }

                if (readiness is not null && !Wake(readiness))
                {
                    return;
                }
            }
        }
    }

    /// <summary>Wakes one wait; false when a continuation held this thread so long that another took over the waiting.</summary>
    private bool Wake(ZmqReadiness readiness)
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

        // Dispose may have looked for the watchdog before it was there; both sides exchange, so one sees the other.
        if (_stopping)
        {
            watchdog.Dispose();
        }

        return watchdog;
    }

    /// <summary>Called by the watchdog when a continuation holds the reactor thread: a new thread takes over the waiting.</summary>
    private void TakeOver()
    {
        lock (_sync)
        {
            if (_stopping)
            {
                return;
            }

            _thread = new Thread(RunAfterTakeOver) { IsBackground = true, Name = "berth-zmq-readiness" };
            _thread.Start();
        }
    }

    /// <summary>
    /// The held thread may have taken edges from epoll that it never delivered, so every registration is woken once;
    /// a wait woken without cause checks its socket's events and waits again.
    /// </summary>
    private void RunAfterTakeOver()
    {
        ZmqReadiness[] registered;
        lock (_sync)
        {
            registered = [.. _registered.Values];
        }

        foreach (var readiness in registered)
        {
            if (!Wake(readiness))
            {
                return;
            }
        }

        Run();
    }
}
