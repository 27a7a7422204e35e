namespace Berth.Connections;

/// <summary>What a server does with a connection that arrives while it is at its maximum.</summary>
public enum ConnectionLimitPolicy
{
    /// <summary>Stop accepting until a connection ends; newcomers wait in the listen backlog.</summary>
    PauseAccepting,

    /// <summary>Accept and immediately close the newcomer with <see cref="DisconnectReason.ConnectionLimit"/>.</summary>
    CloseNewest,
}
