using System.Diagnostics;

namespace Berth.Cli.Load;

/// <summary>
/// The schedule of a run at a rate: one thread marks every session's requests due, at evenly spread offsets within
/// one interval, so ten thousand sessions need one timer and one thread rather than one each. It sleeps to the
/// nanosecond when the next request is due (<see cref="DueTimeSleep"/>), never before, and then hands out everything
/// that fell due meanwhile, sending each from this thread; a late wake-up is not hidden, because each round trip is
/// timed from when its request was due.
/// </summary>
internal static class LoadPacer
{
    public static Task Start(IReadOnlyList<LoadSession> sessions, double rate, LoadWindow window)
    {
        var interval = Stopwatch.Frequency / rate;
        var start = Stopwatch.GetTimestamp();
        for (var i = 0; i < sessions.Count; i++)
        {
            sessions[i].Schedule(start + (long)(interval * i / sessions.Count), interval);
        }

        return Task.Factory.StartNew(
            () => Run(sessions, start, interval, window), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    private static void Run(IReadOnlyList<LoadSession> sessions, long start, double interval, LoadWindow window)
    {
        for (long round = 0; ; round++)
        {
            for (var i = 0; i < sessions.Count; i++)
            {
                var due = start + (long)((round + ((double)i / sessions.Count)) * interval);
                while (Stopwatch.GetTimestamp() < due)
                {
                    if (window.IsOver)
                    {
                        return;
                    }

                    DueTimeSleep.Until(due);
                }

                if (window.IsOver)
                {
                    return;
                }

                sessions[i].FallDue();
            }
        }
    }
}
