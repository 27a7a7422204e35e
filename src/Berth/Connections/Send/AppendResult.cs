namespace Berth.Connections.Send;

/// <summary>What became of a frame offered to a <see cref="SendQueue"/>.</summary>
internal enum AppendResult
{
    /// <summary>Queued behind other frames the sender already knows about.</summary>
    Accepted,

    /// <summary>Queued as the first frame since the sender last looked: the sender must be woken.</summary>
    AcceptedIntoEmpty,

    /// <summary>Not queued: the queue has no room for it.</summary>
    Full,

    /// <summary>Not queued: the connection is closing.</summary>
    Closed,
}
