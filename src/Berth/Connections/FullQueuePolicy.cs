namespace Berth.Connections;

/// <summary>What a send does when the connection's send queue has no room for the frame.</summary>
public enum FullQueuePolicy
{
    /// <summary><c>TrySend</c> returns false and <c>SendAsync</c> throws <see cref="SendQueueFullException"/>.</summary>
    Reject,

    /// <summary><c>TrySend</c> returns false and <c>SendAsync</c> waits until the queue has room.</summary>
    Wait,

    /// <summary>The connection is closed with <see cref="DisconnectReason.SlowConsumer"/> and the send fails.</summary>
    CloseAsSlowConsumer,
}
