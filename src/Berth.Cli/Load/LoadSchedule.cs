using System.Diagnostics;

namespace Berth.Cli.Load;

/// <summary>
/// The due times of some of a run's sessions at a rate: session i of n falls due at start + (round + i / n) × interval,
/// so the whole run's requests are spread evenly over each interval. The sessions are kept in the order of i, so the
/// one due next is always at the cursor, as in the C rate client, and no timer per session is needed.
/// </summary>
internal sealed class LoadSchedule(IReadOnlyList<(LoadSession Session, double Phase)> sessions, long start, double interval, LoadWindow window)
{
    /// <summary>The longest time between two calls, so that a sparse schedule still notices the end of its window soon.</summary>
    private static readonly long LongestWait = Stopwatch.Frequency / 10;

    private int _cursor;
    private long _round;

    /// <summary>No more due times: the window is over.</summary>
    public const long Over = long.MaxValue;

    /// <summary>When the session at the cursor falls due.</summary>
    public long NextDue => start + (long)((_round + sessions[_cursor].Phase) * interval);

    /// <summary>
    /// Hands every request due by <paramref name="now"/> to its session, in order, and returns when to call again: the
    /// next due time (at most a tenth of a second away), or <see cref="Over"/>.
    /// </summary>
    public long FallDue(long now)
    {
        if (window.IsOver)
        {
            return Over;
        }

        long due;
        while ((due = NextDue) <= now)
        {
            sessions[_cursor].Session.FallDue();
            if (++_cursor == sessions.Count)
            {
                _cursor = 0;
                _round++;
            }
        }

        return Math.Min(due, now + LongestWait);
    }
}
