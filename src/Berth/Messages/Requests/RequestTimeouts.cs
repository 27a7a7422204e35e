namespace Berth.Messages.Requests;

/// <summary>
/// Fails requests past their deadline with <see cref="TimeoutException"/>, for connections without an event loop (those
/// with one check their deadlines on it, <see cref="LoopDeadlines"/>). One process-wide timer looks at every such
/// connection that has awaited a request with a timeout, so a request only stores its deadline: no timer per request,
/// nothing allocated per round trip. The timer runs only while some such connection is open.
/// </summary>
internal static class RequestTimeouts
{
    /// <summary>How often deadlines are checked, so a request fails at most this much after its timeout.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(20);

    private static readonly Lock Sync = new();
    private static readonly List<PendingRequests> Watched = [];
    private static readonly List<PendingRequests> Sweeping = [];
    private static readonly List<PendingRequest> Expired = [];
    private static readonly Timer Sweeper = new(static _ => Sweep(), null, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    private static bool s_sweeping;
    private static bool s_running;

    /// <summary>Starts watching a connection's requests, until the connection ends.</summary>
    public static void Watch(PendingRequests requests)
    {
        lock (Sync)
        {
            Watched.Add(requests);
            if (!s_running)
            {
                s_running = true;
                Sweeper.Change(Period, Period);
            }
        }
    }

    private static void Sweep()
    {
        lock (Sync)
        {
            // A tick that finds the previous one still sweeping skips; the next one catches up.
            if (s_sweeping)
            {
                return;
            }

            s_sweeping = true;
            Sweeping.AddRange(Watched);
        }

        var now = Environment.TickCount64;
        foreach (var requests in Sweeping)
        {
            requests.RemoveExpired(now, Expired);
        }

        foreach (var request in Expired)
        {
            request.FailTimedOut();
        }

        Expired.Clear();
        lock (Sync)
        {
            foreach (var requests in Sweeping)
            {
                if (requests.HasEnded)
                {
                    Watched.Remove(requests);
                }
            }

            if (Watched.Count == 0)
            {
                s_running = false;
                Sweeper.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
            }

            Sweeping.Clear();
            s_sweeping = false;
        }
    }
}
