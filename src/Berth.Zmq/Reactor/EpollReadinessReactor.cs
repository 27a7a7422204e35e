using System.Runtime.InteropServices;
using Berth.Interop;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// One thread per context that waits, in <c>epoll_wait</c>, on the <c>ZMQ_FD</c> of every socket with a pending async
/// operation and wakes that operation. It never touches a libzmq socket (they are single-threaded); it only watches
/// the notification descriptors, edge-triggered, which is how libzmq signals them.
/// </summary>
internal sealed unsafe class EpollReadinessReactor : IReadinessReactor
{
    private const ulong WakeId = 0;
    private const int MaxEvents = 64;

    private readonly int _epoll;
    private readonly int _wake;
    private readonly Thread _thread;
    private readonly Lock _sync = new();
    private readonly Dictionary<ulong, ZmqReadiness> _registered = [];
    private ulong _nextId = WakeId + 1;
    private volatile bool _stopping;

    public EpollReadinessReactor()
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
        if (_stopping)
        {
            return;
        }

        _stopping = true;
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

                readiness?.Signal();
            }
        }
    }
}
