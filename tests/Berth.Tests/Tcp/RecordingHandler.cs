using System.Buffers;
using System.Collections.Concurrent;
using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>Echoes (unless told otherwise) and records every connection and disconnect, for tests to await.</summary>
internal class RecordingHandler : ConnectionHandler
{
    private readonly TaskCompletionSource<Connection> _firstConnection = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public ConcurrentQueue<(Connection Connection, DisconnectInfo Info)> Disconnects { get; } = new();

    public ConcurrentQueue<Connection> Connections { get; } = new();

    public Task<Connection> FirstConnection => _firstConnection.Task;

    public bool Echo { get; init; } = true;

    public override void OnConnected(Connection connection)
    {
        Connections.Enqueue(connection);
        _firstConnection.TrySetResult(connection);
    }

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        if (Echo)
        {
            Assert.True(connection.TrySend(body));
        }
    }

    public override void OnDisconnected(Connection connection, DisconnectInfo info) => Disconnects.Enqueue((connection, info));
}
