using System.Diagnostics;
using System.Globalization;
using Berth.Cli.Load;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>
/// The load generator's latency under a stalled server: <c>berth serve</c> runs as a child process and is stopped with
/// SIGSTOP for a second in the middle of the measurement. Requests keep falling due during the pause and are timed from
/// when they were due, so the percentiles must show the pause; a client that only timed what it actually sent would
/// report one slow request per connection and a p99 of a few milliseconds.
/// </summary>
public sealed class LoadScheduleTests
{
    private static readonly TimeSpan Pause = TimeSpan.FromSeconds(1);

    [Fact]
    public async Task AServerPauseShowsInP99AtAFixedRate()
    {
        await using var serve = new BerthProcess("serve", "--port", "0");
        var line = await serve.LineStartingWithAsync("listening on ");
        var port = int.Parse(line[(line.LastIndexOf(':') + 1)..], CultureInfo.InvariantCulture);
        Task<(TimeSpan Stopped, TimeSpan Continued)>? pausing = null;
        var measuring = new Stopwatch();
        var runner = new LoadRunner(new LoadSettings
        {
            Host = "127.0.0.1",
            Port = port,
            Connections = 10,
            Rate = 100,
            Pipeline = 16,
            Warmup = TimeSpan.FromSeconds(0.5),
            Duration = TimeSpan.FromSeconds(6),
        })
        {
            MeasurementStarting = () =>
            {
                measuring.Start();
                pausing = PauseAsync(serve, measuring);
            },
        };

        var result = await runner.RunAsync(CancellationToken.None).Within();
        var (stopped, continued) = await pausing!.Within();

        // The pause starts a second into a six-second window; on a starved machine the signal can land late, so check
        // that the whole pause fell inside the window before reading anything into the percentiles.
        Assert.True(continued <= result.Elapsed, $"the pause ({stopped} to {continued}) ended after the {result.Elapsed} window");

        // About a quarter of the requests fell due during the pause, waiting up to a second each, so p99 is close to
        // the whole pause; half of it is a bound no scheduling noise explains away.
        Assert.True(result.P99Microseconds >= Pause.TotalMicroseconds / 2, $"p99 {result.P99Microseconds:N0} µs, max {result.MaxMicroseconds:N0} µs");
        // The request that fell due just after the stop waited for the continue: max covers the pause as it happened.
        var paused = continued - stopped;
        Assert.True(result.MaxMicroseconds >= paused.TotalMicroseconds * 0.9, $"max {result.MaxMicroseconds:N0} µs, paused {paused}");
        Assert.Equal(0, result.Errors);

        // Sends kept to the schedule: what fell due during the pause went out after it, so none was skipped.
        var due = 10 * 100 * result.Elapsed.TotalSeconds;
        Assert.True(result.Messages >= due * 0.8, $"{result.Messages} echoes of {due:N0} due");
    }

    /// <summary>Stops the server a second into the window for <see cref="Pause"/>; returns when it stopped and continued.</summary>
    private static async Task<(TimeSpan Stopped, TimeSpan Continued)> PauseAsync(BerthProcess serve, Stopwatch measuring)
    {
        await Task.Delay(TimeSpan.FromSeconds(1));
        await serve.SignalAsync("STOP");
        var stopped = measuring.Elapsed;
        try
        {
            await Task.Delay(Pause);
        }
        finally
        {
            await serve.SignalAsync("CONT");
        }

        return (stopped, measuring.Elapsed);
    }
}
