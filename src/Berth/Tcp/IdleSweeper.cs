using System.Collections.Concurrent;

namespace Berth.Tcp;

/// <summary>
/// Closes connections that received nothing for longer than the idle timeout. One timer per server or client looks
/// at every connection a few times per timeout, so the receive path only stores a timestamp.
/// </summary>
internal sealed class IdleSweeper : IDisposable
{
    private readonly ConcurrentDictionary<long, Connection> _connections;
    private readonly long _timeoutMilliseconds;
    private readonly Timer _timer;

    public IdleSweeper(TimeSpan timeout, ConcurrentDictionary<long, Connection> connections)
    {
        _connections = connections;
        _timeoutMilliseconds = (long)timeout.TotalMilliseconds;
        var period = TimeSpan.FromMilliseconds(Math.Clamp(timeout.TotalMilliseconds / 4, 10, 1000));
        _timer = new Timer(static state => ((IdleSweeper)state!).Sweep(), this, period, period);
    }

    public void Dispose() => _timer.Dispose();

    private void Sweep()
    {
        var now = Environment.TickCount64;
        foreach (var (_, connection) in _connections)
        {
            if (now - connection.LastReceiveTicks > _timeoutMilliseconds)
            {
                TcpLog.ClosedByPolicy(connection.Logger, connection.Id, DisconnectReason.IdleTimeout);
                connection.Close(DisconnectReason.IdleTimeout, null, flush: false);
            }
        }
    }
}
