using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace Berth.Zmq.Tests;

/// <summary>
/// The ZmqBroker sample's `run`: a broker, workers and clients as separate processes over real libzmq on loopback.
/// The first worker stalls at a given request and is killed with SIGKILL while it holds it; the ledger the run
/// prints is checked here by its counts.
/// </summary>
public sealed partial class BrokerSampleTests
{
    private const int Clients = 2;
    private const int Requests = 30;
    private const int StallAt = 3;

    // A hang guard for the whole run, never a measurement.
    private static readonly TimeSpan RunPatience = TimeSpan.FromMinutes(5);

    [Fact]
    public void A_worker_killed_holding_a_request_loses_nothing_and_every_request_is_answered_exactly_once()
    {
        // A long reply timeout keeps a starved machine from resending much; resends would still be correct, only noisier.
        var (exitCode, output) = RunSample("--attempts", "5", "--timeout-ms", "3000");

        Assert.True(exitCode == 0, output);
        Assert.Equal(Clients * Requests, Count(output, "answered exactly once"));
        Assert.Equal(0, Count(output, "answered more than once"));
        Assert.Equal(0, Count(output, "unanswered"));
        Assert.True(Count(output, "processed twice by workers") >= 1, output);

        // Mid-stream, by counts: the killed worker had answered before, the request it held was then answered by
        // another worker on a later attempt, and its client went on sending after that.
        var kill = KillLine().Match(output);
        Assert.True(kill.Success, output);
        var held = kill.Groups["held"].Value;
        Assert.True(int.Parse(kill.Groups["answered"].Value, CultureInfo.InvariantCulture) >= 1, output);
        var recovery = Regex.Match(output, $@"^  {Regex.Escape(held)}: taken by worker-1, [^;]+; answered by (?<other>worker-\d+) on attempt (?<attempt>\d+)$", RegexOptions.Multiline);
        Assert.True(recovery.Success, output);
        Assert.NotEqual("worker-1", recovery.Groups["other"].Value);
        Assert.True(int.Parse(recovery.Groups["attempt"].Value, CultureInfo.InvariantCulture) >= 2, output);
        Assert.True(Count(output, "requests sent after the held one by its client") > 0, output);

        Assert.StartsWith("broker ok:", LastLine(output), StringComparison.Ordinal);
    }

    [Fact]
    public void Without_a_resend_the_held_request_is_reported_lost_and_the_run_fails()
    {
        var (exitCode, output) = RunSample("--attempts", "1", "--timeout-ms", "1500");

        Assert.Equal(1, exitCode);
        var held = KillLine().Match(output);
        Assert.True(held.Success, output);
        Assert.Contains($"  problem: {held.Groups["held"].Value} abandoned", output, StringComparison.Ordinal);
        Assert.True(Count(output, "unanswered") >= 1, output);
        Assert.StartsWith("broker FAILED:", LastLine(output), StringComparison.Ordinal);
    }

    private static (int ExitCode, string Output) RunSample(params string[] options)
    {
        var host = Environment.ProcessPath is { } process && Path.GetFileNameWithoutExtension(process) == "dotnet" ? process : "dotnet";
        var start = new ProcessStartInfo(host)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        string[] arguments =
        [
            Path.Combine(AppContext.BaseDirectory, "ZmqBroker.dll"), "run",
            "--clients", Clients.ToString(CultureInfo.InvariantCulture),
            "--requests", Requests.ToString(CultureInfo.InvariantCulture),
            "--workers", "3",
            "--stall-at", StallAt.ToString(CultureInfo.InvariantCulture),
            .. options,
        ];
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var run = Process.Start(start)!;
        var output = run.StandardOutput.ReadToEndAsync();
        var errors = run.StandardError.ReadToEndAsync();
        if (!run.WaitForExit(RunPatience))
        {
            run.Kill(entireProcessTree: true);
            Assert.Fail("the broker sample did not finish");
        }

        run.WaitForExit();
        // Every outcome, a failed one too, belongs in the ledger on standard output: anything on standard error is a crash.
        Assert.True(errors.Result.Length == 0, $"{output.Result}\nstandard error:\n{errors.Result}");
        return (run.ExitCode, output.Result);
    }

    private static int Count(string output, string label)
    {
        var line = Regex.Match(output, $@"^  {Regex.Escape(label)}: (?<count>\d+)", RegexOptions.Multiline);
        Assert.True(line.Success, $"no \"{label}\" in the ledger:\n{output}");
        return int.Parse(line.Groups["count"].Value, CultureInfo.InvariantCulture);
    }

    private static string LastLine(string output) => output.TrimEnd().Split('\n')[^1];

    [GeneratedRegex(@"^  killed: worker-1 \(pid \d+\) with SIGKILL holding (?<held>c\d+-\d+), after answering (?<answered>\d+)$", RegexOptions.Multiline)]
    private static partial Regex KillLine();
}
