using System.Diagnostics;

namespace Berth.Cli.Load;

/// <summary>The phases of a run: warm-up (not measured), measurement, over. Workers read it; the driver advances it.</summary>
internal sealed class LoadWindow
{
    private volatile int _phase;

    public bool IsMeasuring => _phase == 1;

    public bool IsOver => _phase == 2;

    public long MeasureStarted { get; private set; }

    public TimeSpan Measured { get; private set; }

    public void StartMeasuring()
    {
        MeasureStarted = Stopwatch.GetTimestamp();
        _phase = 1;
    }

    public void End()
    {
        _phase = 2;
        Measured = Stopwatch.GetElapsedTime(MeasureStarted);
    }
}
