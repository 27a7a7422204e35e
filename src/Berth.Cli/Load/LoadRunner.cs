using System.Diagnostics;

namespace Berth.Cli.Load;

/// <summary>
/// Connects the load's sessions, runs them through warm-up and the measurement window, and merges their results.
/// <see cref="MeasurementStarting"/> and <see cref="MeasurementEnded"/> let a caller sample its own counters (the bench
/// samples allocated bytes) at exactly the window's edges.
/// </summary>
internal sealed class LoadRunner(LoadSettings settings)
{
    /// <summary>A connection with frames pending and no echo for this long, or none in the whole run, counts as an error.</summary>
    private static readonly TimeSpan NoEchoLimit = TimeSpan.FromSeconds(5);

    public Action? MeasurementStarting { get; init; }

    public Action? MeasurementEnded { get; init; }

    public LoadProgress Progress { get; } = new();

    public async Task<LoadResult> RunAsync(CancellationToken cancellationToken)
    {
        var window = new LoadWindow();
        var sessions = await LoadSessions.OpenAsync(settings, window, Progress, cancellationToken);
        long ended;
        try
        {
            sessions.Start();
            await Task.Delay(settings.Warmup, cancellationToken);
            MeasurementStarting?.Invoke();
            window.StartMeasuring();
            await Task.Delay(settings.Duration, cancellationToken);
            window.End();
            MeasurementEnded?.Invoke();
        }
        finally
        {
            if (!window.IsOver)
            {
                window.End();
            }

            ended = Stopwatch.GetTimestamp();
            await sessions.DisposeAsync();
        }

        foreach (var session in sessions.Sessions)
        {
            var silence = Stopwatch.GetElapsedTime(session.LastEcho, ended);
            if (!session.Failed && session.Pending > 0 && (silence >= NoEchoLimit || !session.Echoed))
            {
                Progress.Failed($"no echo within {silence.TotalSeconds:0.#} s");
            }
        }

        var latency = LatencyRecording.Create();
        long messages = 0, bytes = 0;
        foreach (var recorder in Progress.Recorders)
        {
            latency.Add(recorder.CompleteLatency());
            messages += recorder.Messages;
            bytes += recorder.Bytes;
        }

        return new LoadResult(settings, messages, bytes, Progress.Errors, window.Measured, latency, Progress.ErrorsByReason())
        {
            IdleBytesPerConnection = sessions.IdleBytesPerConnection,
            IdleResidentBytesPerConnection = sessions.IdleResidentBytesPerConnection,
        };
    }
}
