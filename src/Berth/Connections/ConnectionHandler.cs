using System.Buffers;

namespace Berth.Connections;

/// <summary>
/// The application's side of a connection. <see cref="OnFrame"/> runs on the connection's receive loop, one frame at
/// a time; the body is valid only during the call. An exception from <see cref="OnConnected"/> or <see cref="OnFrame"/>
/// closes only that connection, with <see cref="DisconnectReason.HandlerFailed"/>.
/// </summary>
public abstract class ConnectionHandler
{
    /// <summary>A connection opened; frames sent from here are queued and go out once its loops start.</summary>
    public virtual void OnConnected(Connection connection)
    {
    }

    /// <summary>A whole frame arrived. Copy what must outlive the call.</summary>
    public abstract void OnFrame(Connection connection, in ReadOnlySequence<byte> body);

    /// <summary>
    /// The frames of one receive have all been handed to <see cref="OnFrame"/>: called once after the last of them, on
    /// the same thread, before the replies they queued leave (those sent from here leave with them). It marks where a
    /// delivered batch ends, for work a handler does once per batch rather than once per frame, such as reading the
    /// clock.
    /// </summary>
    public virtual void OnFramesDelivered(Connection connection)
    {
    }

    /// <summary>
    /// A connection ended and every buffer it held went back to the pool. Called once for every accepted socket, also
    /// for those refused before <see cref="OnConnected"/> (connection limit, failed TLS handshake).
    /// </summary>
    public virtual void OnDisconnected(Connection connection, DisconnectInfo info)
    {
    }
}
