using System.Diagnostics;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>
/// REQ/REP round-trip latency through Berth.Zmq, the same workload as bench/native/zmq/req_rep_lat.c: a REP thread
/// echoes; the REQ side times each round trip of a span send and a span receive, blocking or awaited.
/// </summary>
internal static class LatencyRun
{
    public readonly record struct Result(double P50Microseconds, double P99Microseconds, double MeanMicroseconds);

    public static Result Measure(int size, int count, bool asynchronous)
    {
        using var context = new ZmqContext();
        using var rep = context.CreateSocket(ZmqSocketType.Rep);
        rep.Bind("tcp://127.0.0.1:*");
        var endpoint = rep.LastEndpoint;
        var echo = new Thread(() => Echo(rep, size, count)) { Name = "zmq-bench-echo" };
        echo.Start();

        using var req = context.CreateSocket(ZmqSocketType.Req);
        req.Connect(endpoint);
        var buffer = new byte[size];
        var samples = new double[count];
        if (asynchronous)
        {
            RoundTripsAsync(req, buffer, samples).GetAwaiter().GetResult();
        }
        else
        {
            for (var i = 0; i < count; i++)
            {
                var start = Stopwatch.GetTimestamp();
                req.Send(buffer);
                req.Receive(buffer);
                samples[i] = Microseconds(start);
            }
        }

        echo.Join();
        return Summarize(samples);
    }

    /// <summary>
    /// The loop as an async client writes it: each round trip awaits the send and the reply, so the code after a
    /// reply runs wherever the reply woke it, with no thread blocked on a task in between.
    /// </summary>
    private static async Task RoundTripsAsync(ZmqSocket req, byte[] buffer, double[] samples)
    {
        for (var i = 0; i < samples.Length; i++)
        {
            var start = Stopwatch.GetTimestamp();
            await req.SendAsync(buffer).ConfigureAwait(false);
            await req.ReceiveAsync(buffer).ConfigureAwait(false);
            samples[i] = Microseconds(start);
        }
    }

    private static double Microseconds(long start) => (Stopwatch.GetTimestamp() - start) * 1e6 / Stopwatch.Frequency;

    /// <summary>The median, 99th percentile and mean of round-trip samples in microseconds (sorts them).</summary>
    public static Result Summarize(double[] samples)
    {
        var mean = samples.Average();
        Array.Sort(samples);
        return new Result(samples[samples.Length / 2], samples[(int)(samples.Length * 0.99)], mean);
    }

    private static void Echo(ZmqSocket rep, int size, int count)
    {
        var buffer = new byte[size];
        for (var i = 0; i < count; i++)
        {
            var received = rep.Receive(buffer);
            rep.Send(buffer.AsSpan(0, received));
        }
    }
}
