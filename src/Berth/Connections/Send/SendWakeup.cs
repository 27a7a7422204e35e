namespace Berth.Connections.Send;

/// <summary>
/// Decides when the send loop wakes. A frame queued into an empty queue wakes it at once, except while the receive
/// loop delivers a batch of frames (between <see cref="BeginDispatch"/> and <see cref="EndDispatch"/>): the replies a
/// handler queues then join the queue at the batch's end (<see cref="SendQueue.EndReplies"/>) and wake it once, so a
/// pipelined burst goes back as one gather send.
/// </summary>
/// <remarks>
/// The send loop continues on the thread that wakes it (see <see cref="SendSignal"/>): after a batch, the receive
/// loop's own thread; otherwise the thread that called the send, or the one that closes the connection.
/// </remarks>
internal sealed class SendWakeup
{
    private readonly SendSignal _signal = new();
    private int _dispatchThread;

    /// <summary>True on the receive loop's thread while it delivers a batch: a send from there is a reply.</summary>
    public bool IsDispatching => _dispatchThread == Environment.CurrentManagedThreadId;

    /// <summary>Marks this thread as the receive loop's while it delivers a batch of frames.</summary>
    public void BeginDispatch() => _dispatchThread = Environment.CurrentManagedThreadId;

    /// <summary>Ends a batch; wakes the send loop when <paramref name="repliesQueued"/> says the batch's replies need it.</summary>
    public void EndDispatch(bool repliesQueued)
    {
        _dispatchThread = 0;
        if (repliesQueued)
        {
            _signal.Set();
        }
    }

    /// <summary>A frame from outside a batch went into an empty queue: wakes the send loop now.</summary>
    public void FrameQueued() => _signal.Set();

    /// <summary>Wakes the send loop at once, so that it sees a close.</summary>
    public void Wake() => _signal.Set();

    /// <summary>The send loop's wait for the next wake-up.</summary>
    public ValueTask WaitAsync() => _signal.WaitAsync();
}
