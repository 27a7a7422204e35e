using System.Diagnostics;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// How long an event loop keeps polling epoll without sleeping after its last event: <see cref="Budget"/>, 50 µs.
/// A thread that sleeps in <c>epoll_wait</c> wakes only after its idle core was woken, which on a virtual machine is
/// a halt exit through the hypervisor; with one pipelined connection that wake costs more than the turn itself, and
/// the connection then runs one batch per wake (docs/decisions/c-echo-anchor.md counts it). Polling for a little
/// longer than one awake round trip lets the next batch find the loop running. While it polls, the loop yields its
/// core after every empty poll, so a runnable thread on that core (the peer, another loop) goes first. The budget is
/// measured from the last turn that found an event, so a loop that has nothing to do polls once for 50 µs and then
/// sleeps: an idle server uses no CPU.
/// </summary>
internal struct LoopSpin
{
    private static readonly long Budget = Stopwatch.Frequency / 20_000;

    private long _lastEvent;

    /// <summary>A turn found events or ran a timer: the budget starts again.</summary>
    public void Busy() => _lastEvent = Stopwatch.GetTimestamp();

    /// <summary>True while the budget since the last event lasts, so the next wait polls instead of sleeping.</summary>
    public readonly bool Polling => Stopwatch.GetTimestamp() - _lastEvent < Budget;
}
