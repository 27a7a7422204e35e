using System.Diagnostics;
using Berth.Connections.Transport.Epoll;

namespace Berth.Messages.Requests;

/// <summary>
/// Fails the requests of one connection served by an <see cref="EpollLoop"/> once they are past their deadline, on that
/// loop's thread, every <see cref="RequestTimeouts.Period"/>. The loop already wakes for the connection's events, so its
/// deadlines cost a due-time check per turn instead of a thread-pool timer's wake and a worker's spin after each tick;
/// the timed-out caller's continuation runs on the loop's thread, as a reply's does.
/// </summary>
internal sealed class LoopDeadlines(PendingRequests requests) : LoopTimer
{
    private static readonly long Period = (long)(RequestTimeouts.Period.TotalSeconds * Stopwatch.Frequency);

    /// <summary>Reused by every check, only on the loop's thread.</summary>
    private readonly List<PendingRequest> _expired = [];

    /// <summary>Starts checking <paramref name="requests"/>' deadlines on <paramref name="loop"/>'s thread, until the connection ends.</summary>
    public static void Watch(PendingRequests requests, EpollLoop loop) =>
        loop.Attach(new LoopDeadlines(requests), Stopwatch.GetTimestamp() + Period);

    public override long OnDue(long now)
    {
        if (requests.HasEnded)
        {
            return Never;
        }

        requests.RemoveExpired(Environment.TickCount64, _expired);
        FailExpired();
        return now + Period;
    }

    public override void OnFailed(Exception error)
    {
        // A continuation threw out of a timed-out request's completion, which dropped this timer: the connection's
        // deadlines go to the process-wide timer, and the requests already taken out still fail.
        RequestTimeouts.Watch(requests);
        FailExpired();
    }

    /// <summary>Fails the expired requests one at a time, each taken out first, so a throw leaves the rest for <see cref="OnFailed"/>.</summary>
    private void FailExpired()
    {
        while (_expired.Count > 0)
        {
            var request = _expired[^1];
            _expired.RemoveAt(_expired.Count - 1);
            request.FailTimedOut();
        }
    }
}
