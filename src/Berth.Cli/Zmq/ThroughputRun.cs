using System.Buffers;
using System.Diagnostics;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// PUSH/PULL or ROUTER/DEALER throughput through Berth.Zmq, the same workload as bench/native/zmq/push_pull_thr.c and
/// router_dealer_thr.c: a sender thread sends COUNT messages over tcp loopback; the receiver reuses one
/// <see cref="ZmqMessage"/> for every frame; the clock runs from the first message received after a warm-up of uncounted
/// messages through the same sockets and threads (as the C programs do) to the last.
/// </summary>
internal static class ThroughputRun
{
    /// <summary>
    /// A run's rate, the bytes allocated per message and the minor page faults per message, both while the clock ran
    /// (NaN when not measured). The warm-up is left out of the allocation: it pays the run's one-off costs (the sender's
    /// payload array, the threads, the zero-copy pool growing to the frames in flight), which divided by the message count
    /// read as a per-message cost that is not there.
    /// </summary>
    public readonly record struct Result(double MessagesPerSecond, double AllocatedBytesPerMessage, double FaultsPerMessage);

    public static Result Measure(ThroughputPattern pattern, SendStrategy strategy, int size, int count, int warmUp)
    {
        using var context = new ZmqContext();
        using var receiver = context.CreateSocket(pattern == ThroughputPattern.PushPull ? ZmqSocketType.Pull : ZmqSocketType.Router);
        receiver.Bind("tcp://127.0.0.1:*");
        var endpoint = receiver.LastEndpoint;

        var senderType = pattern == ThroughputPattern.PushPull ? ZmqSocketType.Push : ZmqSocketType.Dealer;
        var sender = new Thread(() => Send(context, senderType, endpoint, strategy, size, warmUp + count)) { Name = "zmq-bench-sender" };
        sender.Start();
        using var message = new ZmqMessage();
        var frames = pattern.FramesPerMessage();
        for (var i = 0; i <= warmUp; i++)
        {
            ReceiveOne(receiver, message, frames);
        }

        var faults = PageFaults.Count();
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var clock = Stopwatch.StartNew();
        for (var i = 1; i < count; i++)
        {
            ReceiveOne(receiver, message, frames);
        }

        var seconds = clock.Elapsed.TotalSeconds;
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        faults = PageFaults.Count() - faults;
        sender.Join();
        return new Result((count - 1) / seconds, (double)allocated / count, (double)faults / count);
    }

    private static void ReceiveOne(ZmqSocket receiver, ZmqMessage message, int frames)
    {
        for (var frame = 0; frame < frames; frame++)
        {
            receiver.Receive(message);
        }
    }

    private static void Send(ZmqContext context, ZmqSocketType type, string endpoint, SendStrategy strategy, int size, int count)
    {
        using var push = context.CreateSocket(type);
        push.ZeroCopyThreshold = strategy switch
        {
            SendStrategy.Default => push.ZeroCopyThreshold,
            SendStrategy.Pooled => 0,
            _ => int.MaxValue,
        };

        push.Connect(endpoint);
        using var message = new ZmqMessage();
        var payload = new byte[size];
        for (var i = 0; i < count; i++)
        {
            switch (strategy)
            {
                case SendStrategy.Default or SendStrategy.Copied or SendStrategy.Pooled:
                    Stamp(payload, i);
                    push.Send(payload);
                    break;
                case SendStrategy.ByteArray:
                    var array = new byte[size];
                    Stamp(array, i);
                    push.Send(array);
                    break;
                case SendStrategy.ArrayPool:
                    var rented = ArrayPool<byte>.Shared.Rent(size);
                    Stamp(rented, i);
                    push.Send(rented.AsSpan(0, size));
                    ArrayPool<byte>.Shared.Return(rented);
                    break;
                case SendStrategy.Message:
                    message.InitSize(size);
                    Stamp(message.Data, i);
                    push.Send(message);
                    break;
                case SendStrategy.ZeroCopy:
                    message.InitPooled(size);
                    Stamp(message.Data, i);
                    push.Send(message);
                    break;
            }
        }
    }

    /// <summary>Writes a few bytes per message, as the C program does, so every strategy touches its buffer.</summary>
    private static void Stamp(Span<byte> data, int sequence) => data[..Math.Min(8, data.Length)].Fill((byte)sequence);
}
