using Berth.Messages.Requests;

namespace Berth.Connections.Send;

/// <summary>
/// Everything the receive path asks of the send side, in one place: whether the send queue is over its limit (then no
/// further frame is delivered), the bracket around a batch of deliveries (replies queued inside it join the queue and
/// wake the send loop once, after the batch), and the wait until the queue drained far enough to resume. The bound on
/// asynchronous request handlers shuts it the same way.
/// </summary>
internal sealed class SendGate(SendQueue queue, SendWakeup wakeup, HandlerSlots handlers)
{
    /// <summary>
    /// True while the send queue holds at least its limit, or the connection's asynchronous request handlers are at their
    /// bound: the receive path delivers and reads nothing.
    /// </summary>
    public bool IsShut => queue.OverLimit || handlers.IsFull;

    /// <summary>
    /// Marks this thread as delivering a batch of frames: sends from it are replies. With <paramref name="lent"/>, the
    /// batch's frames lie in that array, which stays unchanged until <see cref="EndDispatch"/> returns, and this thread
    /// alone completes the connection's sends: replies that repeat a frame may be sent from it without a copy.
    /// </summary>
    public void BeginDispatch(byte[]? lent)
    {
        wakeup.BeginDispatch();
        if (lent is not null)
        {
            queue.LendReceiveBuffer(lent);
        }
    }

    /// <summary>
    /// Ends the batch: its replies join the send queue in one locked step, and the send loop wakes now if they went into
    /// an empty queue or it asked for a batch meanwhile. Then the loan of the batch's array ends: what of it the send
    /// loop did not write is copied, and a send loop that was refused the batch meanwhile is woken.
    /// </summary>
    public void EndDispatch()
    {
        wakeup.EndDispatch(queue.EndReplies());
        if (queue.ReturnReceiveBuffer())
        {
            wakeup.Wake();
        }
    }

    /// <summary>
    /// Completes once the queue drained to half its limit and a request handler slot is free, or the connection started
    /// closing.
    /// </summary>
    public async ValueTask WaitUntilOpenAsync()
    {
        while (!queue.IsClosed && queue.QueuedBytes > queue.ResumeBelow)
        {
            await queue.Drained.WaitAsync().ConfigureAwait(false);
        }

        while (!queue.IsClosed && handlers.IsFull)
        {
            await handlers.Freed.WaitAsync().ConfigureAwait(false);
        }
    }
}
