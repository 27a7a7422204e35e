using Berth.Connections.Send;

namespace Berth.Messages.Requests;

/// <summary>
/// The asynchronous request handlers one connection has running, bounded by <see cref="RequestOptions.MaxInFlightHandlers"/>.
/// The receive path consults it through the <see cref="SendGate"/>: at the bound no further frame is delivered, and the
/// paused receive loop waits on <see cref="Freed"/> until a handler finishes or the connection closes.
/// </summary>
internal sealed class HandlerSlots(int limit)
{
    private int _inFlight;

    /// <summary>Set whenever a handler finishes, and when the connection closes.</summary>
    public SendSignal Freed { get; } = new();

    public bool IsFull => Volatile.Read(ref _inFlight) >= limit;

    public void Take() => Interlocked.Increment(ref _inFlight);

    public void Release()
    {
        Interlocked.Decrement(ref _inFlight);
        Freed.Set();
    }
}
