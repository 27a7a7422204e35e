using Berth.Connections;
using Berth.Connections.Transport.Epoll;

namespace Berth.Messages.Requests;

/// <summary>
/// The requests one connection awaits replies to, by correlation id. Ids count up from 1 and are never reused, so a
/// reply naming an id above the last one issued answers no request at all, while one naming an id no longer here came
/// after its request timed out or was cancelled. Bounded by <see cref="RequestOptions.MaxOutstanding"/>. Deadlines are
/// checked on the connection's event loop when it has one (<paramref name="loop"/>), else by <see cref="RequestTimeouts"/>.
/// </summary>
internal sealed class PendingRequests(int maxOutstanding, EpollLoop? loop)
{
    private readonly Lock _lock = new();
    private readonly Dictionary<long, PendingRequest> _pending = [];
    private long _lastIssued;
    private bool _ended;
    private bool _watched;

    /// <summary>The highest correlation id given out so far.</summary>
    public long LastIssued => Volatile.Read(ref _lastIssued);

    /// <summary>Gives <paramref name="request"/> the next id and adds it; returns why not when the bound is reached or the connection ended.</summary>
    public Exception? TryAdd(PendingRequest request, long deadline)
    {
        bool watch;
        lock (_lock)
        {
            if (_ended)
            {
                return new ConnectionClosedException();
            }

            if (_pending.Count >= maxOutstanding)
            {
                return new RequestLimitReachedException($"The connection already awaits {maxOutstanding} replies, its bound.");
            }

            request.Correlation = _lastIssued + 1;
            Volatile.Write(ref _lastIssued, request.Correlation);
            request.Deadline = deadline;
            request.Table = this;
            _pending.Add(request.Correlation, request);
            watch = deadline != long.MaxValue && !_watched;
            _watched |= watch;
        }

        if (watch && loop is not null)
        {
            LoopDeadlines.Watch(this, loop);
        }
        else if (watch)
        {
            RequestTimeouts.Watch(this);
        }

        return null;
    }

    /// <summary>Removes and returns the request with <paramref name="correlation"/>; null when it is not (or no longer) here.</summary>
    public PendingRequest? TryRemove(long correlation)
    {
        lock (_lock)
        {
            return _pending.Remove(correlation, out var request) ? request : null;
        }
    }

    /// <summary>True once the connection closed; nothing is added from then on.</summary>
    public bool HasEnded
    {
        get
        {
            lock (_lock)
            {
                return _ended;
            }
        }
    }

    /// <summary>Removes the requests past their deadline into <paramref name="expired"/>.</summary>
    public void RemoveExpired(long now, List<PendingRequest> expired)
    {
        lock (_lock)
        {
            var first = expired.Count;
            foreach (var (_, request) in _pending)
            {
                if (request.Deadline <= now)
                {
                    expired.Add(request);
                }
            }

            for (var i = first; i < expired.Count; i++)
            {
                _pending.Remove(expired[i].Correlation);
            }
        }
    }

    /// <summary>The connection is closing: every request still waiting fails with <see cref="ConnectionClosedException"/>, and later ones are refused.</summary>
    public void End()
    {
        PendingRequest[] waiting;
        lock (_lock)
        {
            _ended = true;
            waiting = [.. _pending.Values];
            _pending.Clear();
        }

        foreach (var request in waiting)
        {
            request.Fail(new ConnectionClosedException("The connection closed before the reply came."));
        }
    }
}
