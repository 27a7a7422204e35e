using System.Net;
using System.Net.Sockets;

namespace Berth.Connections.Transport;

/// <summary>
/// The stage between an accepted socket and everything above it (TLS, framing, the handler): it runs once, before the
/// first frame is read and before <see cref="ConnectionHandler.OnConnected"/>, and returns the peer's address. A
/// PROXY-protocol header will be read here, in the clear and before any TLS handshake: such a stage reads exactly the
/// header's bytes off the socket and returns the original client's address, which becomes the transport's
/// <see cref="ConnectionTransport.RemoteEndPoint"/>. A stage that throws refuses the connection.
/// </summary>
internal interface IPreFramingStage
{
    /// <summary>Reads what precedes the framed stream on <paramref name="socket"/>; returns the peer's address.</summary>
    ValueTask<EndPoint?> RunAsync(Socket socket, EndPoint? remoteEndPoint, CancellationToken cancellationToken);
}
