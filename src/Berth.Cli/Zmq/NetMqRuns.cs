using System.Diagnostics;
using NetMQ;
using NetMQ.Sockets;

namespace Berth.Cli.Zmq;

/// <summary>
/// The benchmark's workloads through NetMQ (a ZeroMQ implementation in C#), its fastest API: one reused <see cref="Msg"/>
/// per side, frames from NetMQ's buffer pool (<see cref="Msg.InitPool(int)"/>), as the C program reuses zmq_msg_t.
/// </summary>
internal static class NetMqRuns
{
    /// <summary>NetMQ drops what is still queued when a socket closes under its default linger of zero.</summary>
    private static readonly TimeSpan Linger = TimeSpan.FromSeconds(30);

    public static ThroughputRun.Result Throughput(ThroughputPattern pattern, int size, int count, int warmUp)
    {
        using NetMQSocket receiver = pattern == ThroughputPattern.PushPull ? new PullSocket() : new RouterSocket();
        var port = receiver.BindRandomPort("tcp://127.0.0.1");
        using var received = new ManualResetEventSlim();
        var sender = new Thread(() => Send(pattern, port, size, warmUp + count, received)) { Name = "netmq-bench-sender", IsBackground = true };
        sender.Start();
        var message = default(Msg);
        message.InitEmpty();
        var frames = pattern.FramesPerMessage();
        var faults = 0L;
        var allocatedBefore = 0L;
        var clock = Stopwatch.StartNew();
        for (var i = 0; i < warmUp + count; i++)
        {
            for (var frame = 0; frame < frames; frame++)
            {
                if (!TryReceive(receiver, ref message, i))
                {
                    received.Set();
                    return new ThroughputRun.Result(double.NaN, double.NaN, double.NaN);
                }
            }

            if (i == warmUp)
            {
                faults = PageFaults.Count();
                allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
                clock.Restart();
            }
        }

        var seconds = clock.Elapsed.TotalSeconds;
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        faults = PageFaults.Count() - faults;
        received.Set();
        message.Close();
        sender.Join();
        return new ThroughputRun.Result((count - 1) / seconds, (double)allocated / count, (double)faults / count);
    }

    public static LatencyRun.Result Latency(int size, int count)
    {
        using var rep = new ResponseSocket();
        var port = rep.BindRandomPort("tcp://127.0.0.1");
        var echo = new Thread(() => Echo(rep, count)) { Name = "netmq-bench-echo", IsBackground = true };
        echo.Start();
        using var req = new RequestSocket();
        req.Options.Linger = Linger;
        req.Connect($"tcp://127.0.0.1:{port}");
        var samples = new double[count];
        var ticksToMicroseconds = 1e6 / Stopwatch.Frequency;
        var message = default(Msg);
        message.InitEmpty();
        for (var i = 0; i < count; i++)
        {
            var start = Stopwatch.GetTimestamp();
            message.Close();
            message.InitPool(size);
            req.Send(ref message, more: false);
            if (!TryReceive(req, ref message, i))
            {
                return new LatencyRun.Result(double.NaN, double.NaN, double.NaN);
            }

            samples[i] = (Stopwatch.GetTimestamp() - start) * ticksToMicroseconds;
        }

        message.Close();
        echo.Join();
        return LatencyRun.Summarize(samples);
    }

    /// <summary>
    /// A receive that gives up after 30 s, so a run that loses messages reports the stall instead of hanging.
    /// </summary>
    private static bool TryReceive(NetMQSocket socket, ref Msg message, int index)
    {
        if (socket.TryReceive(ref message, TimeSpan.FromSeconds(30)))
        {
            return true;
        }

        Console.Error.WriteLine($"  NetMQ {socket.GetType().Name} received nothing for 30 s after {index} messages: reported as stalled");
        return false;
    }

    /// <remarks>
    /// The socket stays open until the receiver has every message: disposed as soon as the last send returned, NetMQ
    /// 4.0.4.5 dropped the last messages still queued on it (1 to 3,638 of them in one run's cells), linger of 30 s
    /// notwithstanding, and the receiver waited for them in vain.
    /// </remarks>
    private static void Send(ThroughputPattern pattern, int port, int size, int count, ManualResetEventSlim received)
    {
        using NetMQSocket push = pattern == ThroughputPattern.PushPull ? new PushSocket() : new DealerSocket();
        push.Options.Linger = Linger;
        push.Connect($"tcp://127.0.0.1:{port}");
        var payload = new byte[size];
        for (var i = 0; i < count; i++)
        {
            payload.AsSpan(0, Math.Min(8, size)).Fill((byte)i);
            push.SendFrame(payload);
        }

        received.Wait(Linger);
    }

    private static void Echo(ResponseSocket rep, int count)
    {
        rep.Options.Linger = Linger;
        var message = default(Msg);
        message.InitEmpty();
        for (var i = 0; i < count; i++)
        {
            if (!TryReceive(rep, ref message, i))
            {
                return;
            }

            rep.Send(ref message, more: false);
        }

        message.Close();
    }
}
