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

    private readonly ConcurrentDictionary<long, Connection> _connections;
    private readonly long _idleMilliseconds;
    private readonly long _frameMilliseconds;
    private readonly long _stallMilliseconds;
    private readonly Timer _timer;

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

    private void Sweep()
    {
        var now = Environment.TickCount64;
        foreach (var (_, connection) in _connections)
        {
            var lifetime = connection.Lifetime;
            if (lifetime.IsClosing)
            {
                continue;
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
}
