using System.Diagnostics;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// How long an event loop keeps polling epoll without sleeping after its last event: <see cref="Budget"/>, 50 µs.
/// A thread that sleeps in <c>epoll_wait</c> wakes only after its idle core was woken, which on a virtual machine is
/// a halt exit through the hypervisor; with one pipelined connection that wake costs more than the turn itself, and
/// the connection then runs one batch per wake (docs/decisions/c-echo-anchor.md counts it). Polling for a little
/// longer than one awake round trip lets the next batch find the loop running. For the first
/// <see cref="EagerPolling"/>, 10 µs, a little more than one awake round trip at one call in flight, it polls back to
/// back, as the spinning C pair does: a yield after every empty poll is a system call of its own, and at one call in
/// flight the yields took more of the loop's samples than the call's own work (docs/decisions/request-hops.md,
/// "Where one call's time goes"). After that the reply is late, perhaps because its sender waits for this very core,
/// so the loop yields after every empty poll, and a runnable thread on its core (the peer, another loop) goes first.
/// The budget is measured from the last turn that found an event, so a loop that has nothing to do polls once for
/// 50 µs and then sleeps: an idle server uses no CPU.
/// </summary>
internal struct LoopSpin
{
    private static readonly long Budget = Stopwatch.Frequency / 20_000;
    private static readonly long EagerPolling = Stopwatch.Frequency / 100_000;

    private long _lastEvent;
    private long _sinceEvent;

    /// <summary>A turn found events or ran a timer: the budget starts again.</summary>
    public void Busy() => _lastEvent = Stopwatch.GetTimestamp();

    /// <summary>True while the budget since the last event lasts, so the next wait polls instead of sleeping.</summary>
    public bool Poll()
    {
        _sinceEvent = Stopwatch.GetTimestamp() - _lastEvent;
        return _sinceEvent < Budget;
    }

    /// <summary>After a poll that found nothing: true once the polls since the last event outlasted the eager part.</summary>
    public readonly bool YieldsAfterEmptyPoll => _sinceEvent >= EagerPolling;
}
