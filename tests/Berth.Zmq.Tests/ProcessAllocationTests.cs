using System.Diagnostics;
using System.Globalization;

namespace Berth.Zmq.Tests;

/// <summary>
/// Steady-state allocation must not grow with the number of messages: a run of 10N allocates less than
/// <see cref="AllocationWorkload.Allowance"/> more than a run of N, counted for the whole process
/// (<see cref="GC.GetTotalAllocatedBytes(bool)"/>): the sender and receiver threads, the readiness reactor that wakes
/// async waits, and libzmq's I/O thread running the zero-copy free callback. Each workload runs in a child process of
/// its own (<see cref="AllocationProgram"/>), where the test runner's traffic cannot be counted. The async runs go
/// through the epoll reactor and, at two sizes, through the portable <c>zmq_poll</c> reactor, and with continuations
/// run inline on the epoll reactor; the zero-copy paths also run DEALER to ROUTER at 64 KB and 1 MiB.
/// </summary>
public sealed class ProcessAllocationTests
{
    public static TheoryData<AllocationWorkload.SendPath, int, string> SendPathsSizesAndModes
    {
        get
        {
            var data = new TheoryData<AllocationWorkload.SendPath, int, string>();
            foreach (var path in Enum.GetValues<AllocationWorkload.SendPath>())
            {
                foreach (var size in new[] { 64, 1024, 64 * 1024, 1024 * 1024 })
                {
                    data.Add(path, size, "blocking");
                    data.Add(path, size, "async");
                }

                foreach (var size in new[] { 64, 64 * 1024 })
                {
                    data.Add(path, size, "async-poll");
                    data.Add(path, size, "async-inline");
                }

                // The bench's ROUTER/DEALER rows, zero-copy and pooled at the sizes where those paths are taken.
                if (path is AllocationWorkload.SendPath.MessagePooled or AllocationWorkload.SendPath.SpanPooled)
                {
                    data.Add(path, 64 * 1024, "router-dealer");
                    data.Add(path, 1024 * 1024, "router-dealer");
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(SendPathsSizesAndModes))]
    public void Sending_and_receiving_allocates_nothing_per_message_in_steady_state(AllocationWorkload.SendPath path, int size, string mode)
    {
        var (few, many, messages) = RunChild(path, size, mode);

        Assert.True(
            many - few < AllocationWorkload.Allowance,
            $"{few} bytes over {messages} messages, {many} over {10 * messages}: grew {many - few} bytes");
    }

    [Theory]
    [InlineData("messages")]
    [InlineData("requests")]
    public void Typed_struct_messages_and_request_round_trips_allocate_nothing_per_message_in_steady_state(string mode)
    {
        var (few, many, messages) = RunChild($"the typed {mode} workload", "typed", mode);

        Assert.True(
            many - few < AllocationWorkload.Allowance,
            $"{few} bytes over {messages} {mode}, {many} over {10 * messages}: grew {many - few} bytes");
    }

    private static (long Few, long Many, int Messages) RunChild(AllocationWorkload.SendPath path, int size, string mode) =>
        RunChild($"the {path} {size} B {mode} workload", "allocation", path.ToString(), size.ToString(CultureInfo.InvariantCulture), mode);

    private static (long Few, long Many, int Messages) RunChild(string workload, params string[] arguments)
    {
        var host = Environment.ProcessPath is { } process && Path.GetFileNameWithoutExtension(process) == "dotnet" ? process : "dotnet";
        var start = new ProcessStartInfo(host)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in (string[])[typeof(AllocationProgram).Assembly.Location, .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        using var child = Process.Start(start)!;
        var output = child.StandardOutput.ReadToEndAsync();
        var errors = child.StandardError.ReadToEndAsync();
        if (!child.WaitForExit(TimeSpan.FromMinutes(2)))
        {
            child.Kill(entireProcessTree: true);
            Assert.Fail($"{workload} did not finish");
        }

        Assert.True(child.ExitCode == 0, $"exit code {child.ExitCode}: {errors.Result}");
        var fields = output.Result.Trim().Split(' ');
        return (long.Parse(fields[0], CultureInfo.InvariantCulture), long.Parse(fields[1], CultureInfo.InvariantCulture), int.Parse(fields[2], CultureInfo.InvariantCulture));
    }
}
