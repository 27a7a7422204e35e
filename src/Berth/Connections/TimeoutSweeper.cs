using System.Collections.Concurrent;

namespace Berth.Connections;

/// <summary>
/// Enforces the time limits of a server's connections, or of every client made from one options object
/// (<see cref="ClientTimeouts"/>): the idle timeout, the frame timeout and the slow-consumer timeout.
/// On the same pass, a connection whose peer acknowledged everything lets go of its record of sent frames.
/// One timer looks at every connection a few times per shortest limit, so the receive and send paths only store
/// timestamps: no timer per connection or per frame, nothing allocated per message.
/// </summary>
internal sealed class TimeoutSweeper : IDisposable
{
    private const long Never = long.MaxValue;
    private const int MinimumSnapshot = 16;

    private readonly ConcurrentDictionary<long, Connection> _connections;
    private readonly long _idleMilliseconds;
    private readonly long _frameMilliseconds;
    private readonly long _stallMilliseconds;
    private readonly Timer _timer;

    /// <summary>
    /// The connections one pass looks at, copied from the dictionary, and cleared after the pass. Enumerating the
    /// dictionary itself allocates its enumerator, 64 B per pass: once a second on an idle server. The array is
    /// replaced only when the connections outgrow it or shrink to a quarter of it, so a pass at rest allocates nothing.
    /// </summary>
    private KeyValuePair<long, Connection>[] _snapshot = [];

    private TimeoutSweeper(ConnectionOptions options, ConcurrentDictionary<long, Connection> connections, TimeSpan shortest)
    {
        _connections = connections;
        _idleMilliseconds = Milliseconds(options.IdleTimeout);
        _frameMilliseconds = Milliseconds(options.FrameTimeout);
        _stallMilliseconds = Milliseconds(options.SlowConsumerTimeout);
        var period = TimeSpan.FromMilliseconds(Math.Clamp(shortest.TotalMilliseconds / 4, 10, 1000));
        _timer = new Timer(static state => ((TimeoutSweeper)state!).Sweep(), this, period, period);
    }

    /// <summary>A sweeper for <paramref name="options"/>' limits, or null when none is set.</summary>
    public static TimeoutSweeper? For(ConnectionOptions options, ConcurrentDictionary<long, Connection> connections)
    {
        TimeSpan?[] limits = [options.IdleTimeout, options.FrameTimeout, options.SlowConsumerTimeout];
        var shortest = limits.Where(limit => limit is not null).Min();
        return shortest is { } period ? new TimeoutSweeper(options, connections, period) : null;
    }

    public void Dispose() => _timer.Dispose();

    private static long Milliseconds(TimeSpan? limit) => limit is { } value ? (long)value.TotalMilliseconds : Never;

    /// <summary>One pass over the connections: the timer's callback, which tests also call on their own thread.</summary>
    internal void Sweep()
    {
        var now = Environment.TickCount64;
        TakeSnapshot();
        for (var i = 0; i < _snapshot.Length && _snapshot[i].Value is { } connection; i++)
        {
            _snapshot[i] = default;
            Check(connection, now);
        }
    }

    /// <summary>
    /// Copies the connections to the front of <see cref="_snapshot"/>, an array twice their number when it was too
    /// small or four times too large. Connections that arrive between the count and the copy fill the spare room; if
    /// more arrived than it holds, the copy is refused and taken again into an array sized for the new count.
    /// </summary>
    private void TakeSnapshot()
    {
        ICollection<KeyValuePair<long, Connection>> connections = _connections;
        while (true)
        {
            var count = connections.Count;
            if (count > _snapshot.Length || (_snapshot.Length > MinimumSnapshot && count < _snapshot.Length / 4))
            {
                _snapshot = new KeyValuePair<long, Connection>[Math.Max(2 * count, MinimumSnapshot)];
            }

            try
            {
                connections.CopyTo(_snapshot, 0);
                return;
            }
            catch (ArgumentException)
            {
                // The dictionary outgrew the array after it was counted; nothing was copied.
            }
        }
    }

    private void Check(Connection connection, long now)
    {
        var lifetime = connection.Lifetime;
        if (lifetime.IsClosing)
        {
            return;
        }

        var activity = lifetime.Activity;
        var partialSince = activity.PartialFrameSinceTicks;
        var pausedSince = activity.PausedSinceTicks;
        if (pausedSince != 0 && now - Math.Max(pausedSince, activity.LastSendProgressTicks) > _stallMilliseconds)
        {
            lifetime.CloseByPolicy(DisconnectReason.SlowConsumer);
        }
        else if (partialSince != 0 && now - partialSince > _frameMilliseconds)
        {
            lifetime.CloseForBadInput(DisconnectReason.FrameTimeout);
        }
        else if (now - activity.LastReceiveTicks > _idleMilliseconds)
        {
            lifetime.CloseByPolicy(DisconnectReason.IdleTimeout);
        }
        else
        {
            lifetime.ForgetAcknowledgedFrames();
        }
    }
}
