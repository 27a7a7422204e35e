using System.Diagnostics;
using Berth.Connections.Transport.Epoll;

namespace Berth.Cli.Load;

/// <summary>
/// Runs a rate's schedule. Each epoll loop gets one <see cref="LoadSchedule"/> for the sessions it serves, as a
/// <see cref="LoopTimer"/>: the loop's wait ends when the next of them falls due and the request is sent from the loop's
/// own thread, where its echo is handled too, as the C rate client sends from the thread that waits in
/// <c>epoll_pwait2</c>. Sessions not on an epoll loop (other systems, or a socket epoll refused) are paced by one thread
/// that sleeps until each due time (<see cref="DueTimeSleep"/>). A late send is not hidden either way, because each
/// round trip is timed from when its request was due.
/// </summary>
internal static class LoadPacer
{
    public static Task Start(IReadOnlyList<LoadSession> sessions, double rate, LoadWindow window)
    {
        var interval = Stopwatch.Frequency / rate;
        var start = Stopwatch.GetTimestamp();
        var byLoop = new Dictionary<EpollLoop, List<(LoadSession, double)>>();
        var offLoop = new List<(LoadSession, double)>();
        for (var i = 0; i < sessions.Count; i++)
        {
            var phase = (double)i / sessions.Count;
            var loop = sessions[i].Loop;
            sessions[i].Schedule(start + (long)(interval * phase), interval, onLoop: loop is not null);
            if (loop is null)
            {
                offLoop.Add((sessions[i], phase));
            }
            else
            {
                (byLoop.TryGetValue(loop, out var list) ? list : byLoop[loop] = []).Add((sessions[i], phase));
            }
        }

        var pacing = new List<Task>();
        foreach (var (loop, onLoop) in byLoop)
        {
            var timer = new PacedLoop(new LoadSchedule(onLoop, start, interval, window));
            loop.Attach(timer, start);
            pacing.Add(timer.Finished);
        }

        if (offLoop.Count > 0)
        {
            var schedule = new LoadSchedule(offLoop, start, interval, window);
            pacing.Add(Task.Factory.StartNew(() => Run(schedule), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default));
        }

        return Task.WhenAll(pacing);
    }

    private static void Run(LoadSchedule schedule)
    {
        for (var next = schedule.FallDue(Stopwatch.GetTimestamp()); next != LoadSchedule.Over; next = schedule.FallDue(Stopwatch.GetTimestamp()))
        {
            DueTimeSleep.Until(next);
        }
    }

    /// <summary>One loop's schedule, run by the loop; completes once the window is over.</summary>
    private sealed class PacedLoop(LoadSchedule schedule) : LoopTimer
    {
        private readonly TaskCompletionSource _finished = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Finished => _finished.Task;

        public override long OnDue(long now)
        {
            var next = schedule.FallDue(now);
            if (next == LoadSchedule.Over)
            {
                _finished.TrySetResult();
                return Never;
            }

            return next;
        }

        public override void OnFailed(Exception error) => _finished.TrySetException(error);
    }
}
