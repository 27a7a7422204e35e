using Berth.Connections;

namespace Berth.Proxy;

/// <summary>Thrown by the header stage to refuse a connection with the reason it found.</summary>
internal sealed class ProxyHeaderRefusedException(DisconnectReason reason, Exception? inner = null)
    : Exception($"PROXY-protocol header refused: {reason}.", inner)
{
    public DisconnectReason Reason { get; } = reason;
}
