using Berth.Threading;

namespace Berth.Connections.Send;

/// <summary>
/// A reusable, allocation-free wake-up for one waiter: <see cref="SendWakeup"/> sets one when a frame lands in an
/// empty queue and the send loop awaits it; <see cref="SendQueue.Drained"/> is another, set when the queue drained,
/// which a paused receive loop awaits. A set with no waiter is remembered for the next wait, so a waiter re-checks its condition
/// after each wake. The waiter continues on the thread that sets it, so a frame queued from a handler starts its send
/// without a thread hop.
/// </summary>
internal sealed class SendSignal : ReusableAwaitable<bool>
{
    private const int Idle = 0;
    private const int Signaled = 1;
    private const int Waiting = 2;

    private int _state;

    public ValueTask WaitAsync()
    {
        if (Interlocked.CompareExchange(ref _state, Idle, Signaled) == Signaled)
        {
            return ValueTask.CompletedTask;
        }

        Reset();
        if (Interlocked.CompareExchange(ref _state, Waiting, Idle) == Idle)
        {
            return PendingWithoutResult;
        }

        Volatile.Write(ref _state, Idle);
        return ValueTask.CompletedTask;
    }

    public void Set()
    {
        while (true)
        {
            switch (Volatile.Read(ref _state))
            {
                case Signaled:
                    return;
                case Idle when Interlocked.CompareExchange(ref _state, Signaled, Idle) == Idle:
                    return;
                case Waiting when Interlocked.CompareExchange(ref _state, Idle, Waiting) == Waiting:
                    SetResult(true);
                    return;
            }
        }
    }
}
