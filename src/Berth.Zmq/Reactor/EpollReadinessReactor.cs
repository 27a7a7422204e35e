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
internal sealed unsafe class EpollReadinessReactor : ReactorThread, IReadinessReactor
{
    private const ulong WakeId = 0;
    private const int MaxEvents = 64;

    private readonly int _epoll;
    private readonly int _wake;
    private readonly Dictionary<ulong, ZmqReadiness> _registered = [];
    private ulong _nextId = WakeId + 1;

    /// <param name="inline">True when woken continuations run on the reactor thread, which then needs a watchdog.</param>
    public EpollReadinessReactor(bool inline)
        : base(inline, "berth-zmq-readiness")
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

        Start();
    }

    public ulong Add(nint fd, ZmqReadiness readiness)
    {
        lock (Sync)
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

    public void Remove(nint fd, ulong id)
    {
        lock (Sync)
        {
            _registered.Remove(id);
            LinuxEpoll.Control(_epoll, LinuxEpoll.Delete, (int)fd, 0, 0);
        }
    }

    public void Dispose()
    {
        if (!BeginStop())
        {
            return;
        }

        ulong one = 1;
        LinuxEvents.Write(_wake, &one, sizeof(ulong));
        JoinThread();
        LinuxEvents.Close(_wake);
        LinuxEvents.Close(_epoll);
    }

    protected override void Run()
    {
        var events = stackalloc byte[MaxEvents * LinuxEpoll.EventSize];
        while (!Stopping)
        {
            var count = LinuxEpoll.Wait(_epoll, events, MaxEvents, -1);
            for (var i = 0; i < count; i++)
            {
                var id = LinuxEpoll.DataAt(events, i);
                ZmqReadiness? readiness;
                lock (Sync)
                {
                    _registered.TryGetValue(id, out readiness);
                }

                if (readiness is not null && !Deliver(readiness))
                {
                    return;
                }
            }
        }
    }

    protected override ZmqReadiness[] Registered() => [.. _registered.Values];
}
