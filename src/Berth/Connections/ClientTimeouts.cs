using System.Collections.Concurrent;

namespace Berth.Connections;

/// <summary>
/// The one <see cref="TimeoutSweeper"/> shared by every <see cref="BerthClient"/> made from the same
/// <see cref="BerthClientOptions"/>, so ten thousand clients mean one timer, not ten thousand. The first client to join
/// starts it with the options' limits as they are then; the last to leave stops it.
/// </summary>
internal sealed class ClientTimeouts
{
    private readonly Lock _lock = new();
    private readonly ConcurrentDictionary<long, Connection> _connections = new();
    private TimeoutSweeper? _sweeper;
    private int _clients;

    /// <summary>A client starts; the sweeper runs from now on if <paramref name="options"/> set any limit.</summary>
    public void Join(ConnectionOptions options)
    {
        lock (_lock)
        {
            if (_clients++ == 0)
            {
                _sweeper = TimeoutSweeper.For(options, _connections);
            }
        }
    }

    /// <summary>A client was disposed; the last one stops the sweeper.</summary>
    public void Leave()
    {
        lock (_lock)
        {
            if (--_clients == 0)
            {
                _sweeper?.Dispose();
                _sweeper = null;
            }
        }
    }

    /// <summary>Clients made from the options and not yet disposed.</summary>
    public int Clients
    {
        get
        {
            lock (_lock)
            {
                return _clients;
            }
        }
    }

    public void Track(Connection connection) => _connections[connection.Id] = connection;

    public void Forget(Connection connection) => _connections.TryRemove(connection.Id, out _);
}
