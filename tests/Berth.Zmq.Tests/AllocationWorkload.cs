namespace Berth.Zmq.Tests;

/// <summary>
/// PUSH/PULL (or DEALER to ROUTER, blocking) over tcp loopback on two threads (or two async loops): a warm-up that
/// fills every pool to the depth the high-water mark allows, then a measured run between two reads of the process-wide
/// allocation counter.
/// </summary>
public sealed class AllocationWorkload(ZmqContext context, AllocationWorkload.SendPath path, int size, bool routerDealer = false)
{
    /// <summary>
    /// How many more bytes a run of 10N messages may allocate, process-wide, than a run of N: 16 KiB, a constant that
    /// does not depend on N. It leaves room for one-off costs that land in one run and not the other (a thread-pool
    /// thread starting, a continuation box, a zero-copy pool deepening once by one array of a small size), and is far
    /// below what the smallest per-message allocation (one 24 B object) costs over the extra 9N messages at every N
    /// measured here (9 x 100 x 24 B = 21 KiB at 1 MiB, the fewest).
    /// </summary>
    public const long Allowance = 16 * 1024;

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

    /// <summary>The fewest bytes allocated over <see cref="Messages"/> (N) messages and over 10N, measured in pairs.</summary>
    public readonly record struct Allocation(long Few, long Many, int Messages);

    /// <summary>N: the shorter run of a pair; the longer one is 10N.</summary>
    private int Measured => size >= 1024 * 1024 ? 100 : size >= 64 * 1024 ? 500 : 5_000;

    /// <summary>
    /// Pairs of runs (N, then 10N) measured one after another, the pair that grew least kept: a zero-copy pool grows
    /// until it holds as many arrays as frames in flight, and a loaded machine can deepen that once after the warm-up;
    /// one array then lands in a run. A path that allocates per message grows in every pair.
    /// </summary>
    private const int Pairs = 3;

    private int PerPair => 11 * Measured;

    private int WarmUp => Math.Max(HighWatermark * 10, Measured * 2);

    /// <summary>Blocking sends on a thread, blocking receives on the caller.</summary>
    public Allocation Measure()
    {
        var (push, pull) = Connect();
        using (push)
        using (pull)
        using (var incoming = new ZmqMessage())
        {
            var sender = new Thread(() => SendAll(push, WarmUp + (Pairs * PerPair))) { Name = "allocation-sender" };
            sender.Start();
            _queueFilled.Wait(Endpoints.Patience);
            for (var i = 0; i < WarmUp; i++)
            {
                ReceiveOne(pull, incoming);
            }

            long Run(int count)
            {
                var before = GC.GetTotalAllocatedBytes(precise: true);
                for (var i = 0; i < count; i++)
                {
                    ReceiveOne(pull, incoming);
                }

                return GC.GetTotalAllocatedBytes(precise: true) - before;
            }

            var least = new Allocation(0, long.MaxValue, Measured);
            for (var pair = 0; pair < Pairs; pair++)
            {
                var few = Run(Measured);
                var many = Run(10 * Measured);
                least = many - few < least.Many - least.Few ? new Allocation(few, many, Measured) : least;
            }

            sender.Join();
            return least;
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
            var sender = Task.Run(() => SendAllAsync(push, WarmUp + (Pairs * PerPair)));
            _queueFilled.Wait(Endpoints.Patience);
            for (var i = 0; i < WarmUp; i++)
            {
                await pull.ReceiveAsync(incoming);
            }

            async Task<long> Run(int count)
            {
                var before = GC.GetTotalAllocatedBytes(precise: true);
                for (var i = 0; i < count; i++)
                {
                    await pull.ReceiveAsync(incoming);
                }

                return GC.GetTotalAllocatedBytes(precise: true) - before;
            }

            var least = new Allocation(0, long.MaxValue, Measured);
            for (var pair = 0; pair < Pairs; pair++)
            {
                var few = await Run(Measured);
                var many = await Run(10 * Measured);
                least = many - few < least.Many - least.Few ? new Allocation(few, many, Measured) : least;
            }

            await sender;
            return least;
        }
    }

    /// <summary>Receives one message: the body, after the routing id a ROUTER puts in front of it.</summary>
    private void ReceiveOne(ZmqSocket pull, ZmqMessage incoming)
    {
        if (routerDealer)
        {
            pull.Receive(incoming);
        }

        pull.Receive(incoming);
    }

    private (ZmqSocket Push, ZmqSocket Pull) Connect()
    {
        var pull = context.Create(routerDealer ? ZmqSocketType.Router : ZmqSocketType.Pull);
        var push = context.Create(routerDealer ? ZmqSocketType.Dealer : ZmqSocketType.Push);
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
