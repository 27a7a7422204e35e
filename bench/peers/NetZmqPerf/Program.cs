using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;
using Net.Zmq;

// The workloads of bench/native/zmq driven through Net.Zmq, so that `berth zmq bench --netzmq DIR` sets them beside C,
// Berth.Zmq and NetMQ. Throughput sends with either of Net.Zmq's two fastest documented strategies (its own benchmarks
// find a reused span best for small frames and a Message best for large ones): "message" rebuilds one Message at the
// frame size and sends it without a copy (as the C programs' zmq_msg_init_size), "span" sends one reused array with
// Send(ReadOnlySpan). The receiver takes every frame into one reused Message; REQ/REP sends and receives spans.
// It prints key=value pairs as the C programs do.
// usage: NetZmqPerf push_pull_thr|router_dealer_thr SIZE COUNT message|span [WARMUP]
//        NetZmqPerf req_rep_lat SIZE COUNT
if (args.Length is < 3 or > 5)
{
    Console.Error.WriteLine("usage: NetZmqPerf push_pull_thr|router_dealer_thr SIZE COUNT message|span [WARMUP], or NetZmqPerf req_rep_lat SIZE COUNT");
    return 2;
}

UseSystemLibzmq();
var size = int.Parse(args[1], CultureInfo.InvariantCulture);
var count = int.Parse(args[2], CultureInfo.InvariantCulture);
var spanSends = args.Length >= 4 && args[3] == "span";
var warmUp = args.Length == 5 ? int.Parse(args[4], CultureInfo.InvariantCulture) : 0;
switch (args[0])
{
    case "push_pull_thr":
        PrintThroughput(size, count, Throughput(SocketType.Push, SocketType.Pull, framesPerMessage: 1, spanSends, size, count, warmUp));
        break;
    case "router_dealer_thr":
        PrintThroughput(size, count, Throughput(SocketType.Dealer, SocketType.Router, framesPerMessage: 2, spanSends, size, count, warmUp));
        break;
    case "req_rep_lat":
        Latency(size, count);
        break;
    default:
        Console.Error.WriteLine($"unknown workload {args[0]}");
        return 2;
}

return 0;

// The same system libzmq as the C programs and Berth.Zmq, not a copy that a Net.Zmq build may carry.
static void UseSystemLibzmq()
{
    var core = Assembly.Load("Net.Zmq.Core");
    NativeLibrary.SetDllImportResolver(core, (name, _, _) =>
        name == "libzmq" && NativeLibrary.TryLoad("libzmq.so.5", out var handle) ? handle : 0);
}

// A sender thread sends COUNT messages of SIZE bytes; the receiver takes each as framesPerMessage frames (a ROUTER
// also gets the routing id); the clock runs from the first message received after a warm-up of warmUp messages through
// the same sockets and threads (as the C programs) to the last.
static (double Seconds, long Faults) Throughput(SocketType senderType, SocketType receiverType, int framesPerMessage, bool spanSends, int size, int count, int warmUp)
{
    using var context = new Context();
    using var receiver = new Socket(context, receiverType);
    receiver.Bind("tcp://127.0.0.1:*");
    var endpoint = receiver.GetOptionString(SocketOption.Last_Endpoint);
    var sender = new Thread(() =>
    {
        using var socket = new Socket(context, senderType);
        socket.Connect(endpoint);
        using var message = new Message();
        var payload = new byte[size];
        for (var i = 0; i < warmUp + count; i++)
        {
            if (spanSends)
            {
                payload.AsSpan(0, Math.Min(8, size)).Fill((byte)i);
                socket.Send(payload.AsSpan());
            }
            else
            {
                message.Rebuild(size);
                message.Data[..Math.Min(8, size)].Fill((byte)i);
                socket.Send(message);
            }
        }
    });
    sender.Start();
    using var incoming = new Message();
    for (var i = 0; i <= warmUp; i++)
    {
        ReceiveOne(receiver, incoming, framesPerMessage);
    }

    var faults = MinorFaults();
    var clock = Stopwatch.StartNew();
    for (var i = 1; i < count; i++)
    {
        ReceiveOne(receiver, incoming, framesPerMessage);
    }

    var seconds = clock.Elapsed.TotalSeconds;
    faults = MinorFaults() - faults;
    sender.Join();
    return (seconds, faults);
}

// The process's minor page faults so far (/proc/self/stat), as the C programs' getrusage.
static long MinorFaults()
{
    var stat = File.ReadAllText("/proc/self/stat");
    return long.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[7], CultureInfo.InvariantCulture);
}

static void ReceiveOne(Socket receiver, Message incoming, int frames)
{
    for (var frame = 0; frame < frames; frame++)
    {
        receiver.Recv(incoming);
    }
}

static void PrintThroughput(int size, int count, (double Seconds, long Faults) run) =>
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"size={size} count={count} seconds={run.Seconds:F6} msgs_per_sec={(count - 1) / run.Seconds:F0} minor_faults={run.Faults}"));

// A REP thread echoes; the REQ side times every round trip of a span send and a span receive.
static void Latency(int size, int count)
{
    using var context = new Context();
    using var rep = new Socket(context, SocketType.Rep);
    rep.Bind("tcp://127.0.0.1:*");
    var endpoint = rep.GetOptionString(SocketOption.Last_Endpoint);
    var echo = new Thread(() =>
    {
        var buffer = new byte[size + 1];
        for (var i = 0; i < count; i++)
        {
            var received = rep.Recv(buffer);
            rep.Send(buffer.AsSpan(0, received));
        }
    });
    echo.Start();
    using var req = new Socket(context, SocketType.Req);
    req.Connect(endpoint);
    var payload = new byte[size + 1];
    var samples = new double[count];
    var ticksToMicroseconds = 1e6 / Stopwatch.Frequency;
    for (var i = 0; i < count; i++)
    {
        var start = Stopwatch.GetTimestamp();
        req.Send(payload.AsSpan(0, size));
        req.Recv(payload);
        samples[i] = (Stopwatch.GetTimestamp() - start) * ticksToMicroseconds;
    }

    echo.Join();
    var mean = samples.Average();
    Array.Sort(samples);
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"size={size} count={count} p50_us={samples[count / 2]:F2} p99_us={samples[(int)(count * 0.99)]:F2} mean_us={mean:F2}"));
}
