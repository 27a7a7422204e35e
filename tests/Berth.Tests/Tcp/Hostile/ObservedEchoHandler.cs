using System.Buffers;
using System.Collections.Concurrent;
using System.Net;
using Berth.Connections;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>Echoes as <c>berth serve</c> does (<see cref="EchoHandler"/>) and records how every connection ended.</summary>
internal sealed class ObservedEchoHandler : ConnectionHandler
{
    private readonly EchoHandler _echo = new();

    private int _connects;

    public ConcurrentQueue<(EndPoint? Peer, DisconnectInfo Info)> Disconnects { get; } = new();

    /// <summary>Connections the server opened and handed to this handler.</summary>
    public int Connects => Volatile.Read(ref _connects);

    public override void OnConnected(Connection connection) => Interlocked.Increment(ref _connects);

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => _echo.OnFrame(connection, body);

    public override void OnDisconnected(Connection connection, DisconnectInfo info) =>
        Disconnects.Enqueue((connection.RemoteEndPoint, info));

    /// <summary>The reasons of every connection but the one from <paramref name="witness"/>.</summary>
    public DisconnectReason[] ReasonsExcept(EndPoint witness) =>
        [.. Disconnects.Where(d => !witness.Equals(d.Peer)).Select(d => d.Info.Reason)];
}
