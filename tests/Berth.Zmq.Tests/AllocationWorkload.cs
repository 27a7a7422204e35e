namespace Berth.Zmq.Tests;

/// <summary>
/// PUSH/PULL over tcp loopback on two threads (or two async loops): a warm-up that fills every pool to the depth the
/// high-water mark allows, then a measured run between two reads of the process-wide allocation counter.
/// </summary>
public sealed class AllocationWorkload(ZmqContext context, AllocationWorkload.SendPath path, int size)
{
    /// <summary>
    /// The bytes a measured run of <paramref name="messages"/> may allocate: under one byte per message, and at least
    /// 16 KiB for the async runs' one-off costs (a thread pool thread starting, a continuation box). One object per
    /// message (24 B or more) exceeds it at every count, the smallest run (1,000 messages) included.
    /// </summary>
    /// <param name="messages">The messages measured.</param>
    /// <returns>The most bytes allowed.</returns>
    public static long Tolerance(int messages) => Math.Max(16 * 1024, messages);

    /// <summary>How the sender hands each frame to libzmq.</summary>
    public enum SendPath
    {
        /// <summary><c>Send(span)</c> below the zero-copy threshold: <c>zmq_send</c> copies.</summary>
        SpanCopied,

        /// <summary><c>Send(span)</c> at or above the threshold: copied into a pooled array sent without a second copy.</summary>
        SpanPooled,

        /// <summary><c>ZmqMessage.InitSize</c> filled in place.</summary>
        MessageInitSize,

        /// <summary><c>ZmqMessage.InitPooled</c>: zero-copy, the native free callback returns the array.</summary>
        MessagePooled,
    }

    /// <summary>
    /// Zero-copy frames are in flight until libzmq has written them, at most about this many per pipe, and the pool grows
    /// to that depth once; kept low so that the warm-up reaches it (at 1 MiB and the default 1,000 it takes thousands
    /// of messages) and the sender still waits on the high-water mark.
    /// </summary>
    private const int HighWatermark = 10;

    private readonly ManualResetEventSlim _queueFilled = new();

    public readonly record struct Allocation(long Bytes, int Messages);

    private int Measured => size >= 1024 * 1024 ? 1_000 : size >= 64 * 1024 ? 5_000 : 50_000;

    /// <summary>
    /// Windows measured one after another, the fewest bytes kept: a zero-copy pool grows until it holds as many arrays
    /// as frames in flight, and a loaded machine can deepen that once after the warm-up; one array then lands in a
    /// window. A path that allocates per message does so in every window.
    /// </summary>
    private const int Windows = 3;

    private int WarmUp => Math.Max(HighWatermark * 10, Measured / 5);

    /// <summary>Blocking sends on a thread, blocking receives on the caller.</summary>
    public Allocation Measure()
    {
        var (push, pull) = Connect();
        using (push)
        using (pull)
        using (var incoming = new ZmqMessage())
        {
            var sender = new Thread(() => SendAll(push, WarmUp + (Windows * Measured))) { Name = "allocation-sender" };
            sender.Start();
            _queueFilled.Wait(Endpoints.Patience);
            for (var i = 0; i < WarmUp; i++)
            {
                pull.Receive(incoming);
            }

            var fewest = long.MaxValue;
            for (var window = 0; window < Windows; window++)
            {
                var before = GC.GetTotalAllocatedBytes(precise: true);
                for (var i = 0; i < Measured; i++)
                {
                    pull.Receive(incoming);
                }

                fewest = Math.Min(fewest, GC.GetTotalAllocatedBytes(precise: true) - before);
            }

            sender.Join();
            return new Allocation(fewest, Measured);
        }
    }

    /// <summary>Async sends and receives that wait on the readiness reactor whenever the other side is behind.</summary>
    public async Task<Allocation> MeasureAsync()
    {
        var (push, pull) = Connect();
        using (push)
        using (pull)
        using (var incoming = new ZmqMessage())
        {
            var sender = Task.Run(() => SendAllAsync(push, WarmUp + (Windows * Measured)));
            _queueFilled.Wait(Endpoints.Patience);
            for (var i = 0; i < WarmUp; i++)
            {
                await pull.ReceiveAsync(incoming);
            }

            var fewest = long.MaxValue;
            for (var window = 0; window < Windows; window++)
            {
                var before = GC.GetTotalAllocatedBytes(precise: true);
                for (var i = 0; i < Measured; i++)
                {
                    await pull.ReceiveAsync(incoming);
                }

                fewest = Math.Min(fewest, GC.GetTotalAllocatedBytes(precise: true) - before);
            }

            await sender;
            return new Allocation(fewest, Measured);
        }
    }

    private (ZmqSocket Push, ZmqSocket Pull) Connect()
    {
        var pull = context.Create(ZmqSocketType.Pull);
        var push = context.Create(ZmqSocketType.Push);
        pull.ReceiveHighWatermark = HighWatermark;
        push.SendHighWatermark = HighWatermark;
        push.ZeroCopyThreshold = path == SendPath.SpanPooled ? 0 : int.MaxValue;
        push.Linger = Endpoints.Patience;
        pull.Bind("tcp://127.0.0.1:*");
        push.Connect(pull.LastEndpoint);
        return (push, pull);
    }

    private void SendAll(ZmqSocket push, int count)
    {
        var payload = new byte[size];
        using var outgoing = new ZmqMessage();
        for (var i = FillQueue(push, outgoing, payload); i < count; i++)
        {
            if (Prepare(outgoing, payload, i))
            {
                push.Send(outgoing);
            }
            else
            {
                push.Send(payload);
            }
        }
    }

    private async Task SendAllAsync(ZmqSocket push, int count)
    {
        var payload = new byte[size];
        using var outgoing = new ZmqMessage();
        for (var i = FillQueue(push, outgoing, payload); i < count; i++)
        {
            if (Prepare(outgoing, payload, i))
            {
                await push.SendAsync(outgoing);
            }
            else
            {
                await push.SendAsync(payload);
            }
        }
    }

    /// <summary>
    /// Sends without waiting until the high-water mark is reached, before the receiver reads anything: this is the most
    /// frames that can be in flight, so every pool reaches the depth steady state needs. Returns how many were sent.
    /// </summary>
    private int FillQueue(ZmqSocket push, ZmqMessage outgoing, byte[] payload)
    {
        var sent = 0;
        while (sent < WarmUp && (Prepare(outgoing, payload, sent) ? push.TrySend(outgoing) : push.TrySend(payload)))
        {
            sent++;
        }

        outgoing.Clear();
        _queueFilled.Set();
        return sent;
    }

    /// <summary>Stamps the frame's first bytes, in the message for the message paths (true) or in the payload.</summary>
    private bool Prepare(ZmqMessage outgoing, byte[] payload, int sequence)
    {
        switch (path)
        {
            case SendPath.MessageInitSize:
                outgoing.InitSize(size);
                outgoing.Data[..8].Fill((byte)sequence);
                return true;
            case SendPath.MessagePooled:
                outgoing.InitPooled(size);
                outgoing.Data[..8].Fill((byte)sequence);
                return true;
            default:
                payload.AsSpan(0, 8).Fill((byte)sequence);
                return false;
        }
    }
}
