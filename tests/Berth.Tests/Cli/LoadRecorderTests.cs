using Berth.Cli.Load;

namespace Berth.Tests.Cli;

/// <summary>
/// <see cref="LoadRecorder"/> records a run of equal round trips once with its count: the histogram it completes holds
/// exactly what recording each round trip alone would, the last run included, and nothing from outside the window.
/// </summary>
public sealed class LoadRecorderTests
{
    [Fact]
    public void RunsOfEqualRoundTripsAddUpToEveryRoundTripRecordedAlone()
    {
        long[] window = [500, 500, 500, 70_000, 70_000, 500, 1, 9_000_000, 9_000_000, 9_000_000, 0, 0];
        var recorder = new LoadRecorder();
        var alone = LatencyRecording.Create();

        recorder.Echoed(64, 123, measuring: false);
        foreach (var nanoseconds in window)
        {
            recorder.Echoed(64, nanoseconds, measuring: true);
            alone.Record(nanoseconds);
        }

        recorder.Echoed(64, 456, measuring: false);
        var latency = recorder.CompleteLatency();

        Assert.Equal(window.Length, recorder.Messages);
        Assert.Equal(window.Length + 2, recorder.Echoes);
        Assert.Equal(alone.TotalCount, latency.TotalCount);
        foreach (var percentile in new[] { 0.0, 10, 25, 50, 75, 90, 99, 100 })
        {
            Assert.Equal(alone.GetValueAtPercentile(percentile), latency.GetValueAtPercentile(percentile));
        }
    }
}
