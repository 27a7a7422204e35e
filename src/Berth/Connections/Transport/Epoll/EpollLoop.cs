using System.Runtime.InteropServices;
using Berth.Interop;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// One thread around one epoll descriptor. Sockets are registered once, edge-triggered for both directions; each event
/// finishes the waiting receive and send of its socket right here, so what awaits them (the receive loop, frame
/// decoding, the handler, the send loop) runs on this thread without a hop through the thread pool. After its last
/// event or timer firing the loop polls for a bounded time before it sleeps (<see cref="LoopSpin"/>). Its sleep ends at
/// the earliest due time of its <see cref="LoopTimer"/>s, if it has any, and the timers run on this thread too.
/// </summary>
internal sealed unsafe class EpollLoop
{
    private const int MaxEvents = 256;
    private const uint Watched = LinuxEpoll.In | LinuxEpoll.Out | LinuxEpoll.ReadHangUp | LinuxEpoll.EdgeTriggered;

    private readonly int _epoll;
    private readonly EpollRegistrations _registrations = new();
    private readonly Queue<EpollReceiver> _deferred = new();
    private readonly LoopTimers _timers = new();
    private readonly LoopWakeup _wakeup;
    private int _threadId;

    public EpollLoop(string name)
    {
        _epoll = LinuxEpoll.Create(LinuxEpoll.CloseOnExec);
        if (_epoll < 0)
        {
            throw new System.Net.Sockets.SocketException();
        }

        _wakeup = new LoopWakeup(_epoll);
        new Thread(Run) { IsBackground = true, Name = name }.Start();
    }

    /// <summary>True on this loop's own thread.</summary>
    public bool IsCurrentThread => Environment.CurrentManagedThreadId == _threadId;

    /// <summary>
    /// On this loop's thread: resumes <paramref name="receiver"/> after the events already waiting were handled, so a
    /// connection whose data never runs out takes turns with the others instead of holding the thread.
    /// </summary>
    public void Defer(EpollReceiver receiver) => _deferred.Enqueue(receiver);

    /// <summary>
    /// From any thread: runs <paramref name="timer"/> on this loop's thread once the clock reaches <paramref name="due"/>
    /// (a <see cref="System.Diagnostics.Stopwatch"/> timestamp), and after that at each due time it returns.
    /// </summary>
    public void Attach(LoopTimer timer, long due)
    {
        _timers.Attach(timer, due);
        _wakeup.Signal();
    }

    /// <summary>Starts watching <paramref name="transport"/>'s descriptor.</summary>
    /// <exception cref="System.Net.Sockets.SocketException">epoll refused the descriptor.</exception>
    public void Add(EpollTransport transport)
    {
        var token = _registrations.Add(transport);
        if (LinuxEpoll.Control(_epoll, LinuxEpoll.Add, transport.Descriptor, Watched, token) != 0)
        {
            var error = new System.Net.Sockets.SocketException();
            _registrations.Remove(token);
            throw error;
        }
    }

    /// <summary>Stops watching; called before the descriptor is closed, so no event can name a reused descriptor.</summary>
    public void Remove(EpollTransport transport)
    {
        LinuxEpoll.Control(_epoll, LinuxEpoll.Delete, transport.Descriptor, 0, 0);
        _registrations.Remove(transport.Token);
    }

    private void Run()
    {
        var events = (byte*)NativeMemory.Alloc((nuint)(MaxEvents * LinuxEpoll.EventSize));
        _threadId = Environment.CurrentManagedThreadId;
        var spin = default(LoopSpin);
        while (true)
        {
            var deferred = _deferred.Count > 0;
            var polling = !deferred && spin.Polling;
            var count = deferred || polling || _timers.NextDue == LoopTimer.Never
                ? LinuxEpoll.Wait(_epoll, events, MaxEvents, deferred || polling ? 0 : -1)
                : TimedEpollWait.Until(_epoll, events, MaxEvents, _timers.NextDue);
            if (count > 0)
            {
                spin.Busy();
            }
            else if (polling)
            {
                Thread.Yield();
            }

            for (var i = 0; i < count; i++)
            {
                var token = LinuxEpoll.DataAt(events, i);
                if (token == LoopWakeup.Token)
                {
                    _wakeup.Clear();
                    continue;
                }

                _registrations.Find(token)?.OnEvents(LinuxEpoll.EventsAt(events, i));
            }

            // A timer that ran has usually just sent a request, whose reply is on its way: poll for it as after an event.
            if (_timers.Run())
            {
                spin.Busy();
            }

            for (var turns = _deferred.Count; turns > 0; turns--)
            {
                _deferred.Dequeue().Resume();
            }
        }
    }
}
