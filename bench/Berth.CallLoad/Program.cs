using System.Diagnostics;
using System.Globalization;
using Berth.Benchmarks.Calls;

// Closed-loop request/response load for bench/reqresp-vs-grpc.sh. Starts the server (its own process), opens the
// connections (each answers one call before the loops start), keeps `outstanding` calls in flight on each, warms up, then measures one window and prints one JSON
// line: calls/s, p50 and p99 round trip, the server's CPU per million calls, and both processes' allocated bytes per
// call (GC.GetTotalAllocatedBytes deltas over the window).
//   Berth.CallLoad --target berth|grpc --server PATH.dll [--connections 1] [--outstanding 1] [--warmup 1] [--duration 4]
//   Berth.CallLoad --request-bytes      prints the body length of Berth's request frame (envelope and message), so the
//                                       C load generator can send frames of the same size as the limit beside it
if (args is ["--request-bytes"])
{
    Console.WriteLine(BerthCalls.RequestBodyBytes().ToString(CultureInfo.InvariantCulture));
    return 0;
}

const string usage = "usage: Berth.CallLoad --target berth|grpc --server PATH.dll [--connections N] [--outstanding N] [--warmup S] [--duration S]";
string? target = null;
string? server = null;
int connections = 1, outstanding = 1;
double warmup = 1, duration = 4;
for (var i = 0; i + 1 < args.Length; i += 2)
{
    var value = args[i + 1];
    var known = args[i] switch
    {
        "--target" => (target = value) is "berth" or "grpc",
        "--server" => (server = value).Length > 0,
        "--connections" => int.TryParse(value, CultureInfo.InvariantCulture, out connections) && connections > 0,
        "--outstanding" => int.TryParse(value, CultureInfo.InvariantCulture, out outstanding) && outstanding > 0,
        "--warmup" => double.TryParse(value, CultureInfo.InvariantCulture, out warmup) && warmup >= 0,
        "--duration" => double.TryParse(value, CultureInfo.InvariantCulture, out duration) && duration > 0,
        _ => false,
    };
    if (!known)
    {
        Console.Error.WriteLine($"bad option {args[i]} {value}\n{usage}");
        return 2;
    }
}

if (target is null || server is null || args.Length % 2 != 0)
{
    Console.Error.WriteLine(usage);
    return 2;
}

// The main thread only waits and reads counters, synchronously: a continuation after an await could resume on an
// event-loop thread of Berth's client (a reply completes the call inline), and sleeping there would stall its replies.
using var process = ServerProcess.Start(server);
var recorder = new CallRecorder();
IReadOnlyList<Task> loops;
IAsyncDisposable? berth = null;
IDisposable? grpc = null;
if (target == "berth")
{
    var load = BerthCalls.StartAsync(process.Port, connections, outstanding, recorder).GetAwaiter().GetResult();
    (berth, loops) = (load, load.Loops);
}
else
{
    var load = GrpcCalls.StartAsync(process.Port, connections, outstanding, recorder).GetAwaiter().GetResult();
    (grpc, loops) = (load, load.Loops);
}

Thread.Sleep(TimeSpan.FromSeconds(warmup));
var serverBytesBefore = process.AllocatedBytes();
var serverCpuBefore = process.CpuSeconds();
var driverBytesBefore = GC.GetTotalAllocatedBytes(precise: true);
var started = Stopwatch.GetTimestamp();
recorder.StartWindow();
Thread.Sleep(TimeSpan.FromSeconds(duration));
recorder.EndWindow();
var seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
var driverBytes = GC.GetTotalAllocatedBytes(precise: true) - driverBytesBefore;
var serverCpu = process.CpuSeconds() - serverCpuBefore;
var serverBytes = process.AllocatedBytes() - serverBytesBefore;

recorder.Stop();
// A hang guard, not a timing: every loop ends after the call it has in flight.
var stopped = Task.WhenAll(loops).Wait(TimeSpan.FromSeconds(60));
if (berth is not null)
{
    berth.DisposeAsync().AsTask().GetAwaiter().GetResult();
}

grpc?.Dispose();

var measured = recorder.MeasuredCalls();
var calls = measured.TotalCount;
if (calls == 0)
{
    Console.Error.WriteLine($"no call completed in the measured window (failed calls: {recorder.Errors}, first: {recorder.FirstError ?? "none"})");
    return 1;
}

var ticksPerMicrosecond = Stopwatch.Frequency / 1e6;
double PerCall(double total) => total / calls;
var line = string.Create(CultureInfo.InvariantCulture, $$"""
    {"target":"{{target}}","connections":{{connections}},"outstanding":{{outstanding}},"seconds":{{seconds:0.###}},"calls":{{calls}},"calls_per_s":{{calls / seconds:0.#}},"p50_us":{{measured.GetValueAtPercentile(50) / ticksPerMicrosecond:0.###}},"p99_us":{{measured.GetValueAtPercentile(99) / ticksPerMicrosecond:0.###}},"server_cpu_s":{{serverCpu:0.###}},"server_cpu_s_per_million":{{PerCall(serverCpu) * 1e6:0.####}},"server_bytes_per_call":{{PerCall(serverBytes):0.####}},"driver_bytes_per_call":{{PerCall(driverBytes):0.####}},"errors":{{recorder.Errors}},"stopped":{{(stopped ? "true" : "false")}}}
    """);
Console.WriteLine(line);
if (recorder.FirstError is { } error)
{
    Console.Error.WriteLine($"first failed call: {error}");
}

return recorder.Errors == 0 && stopped ? 0 : 1;
