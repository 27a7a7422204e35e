using System.Buffers;
using Berth.Connections;

namespace Berth.Cli.Tcp;

/// <summary>
/// <c>berth serve --log-connections</c>: the echo, plus one line per connection opened ("connection ID from PEER",
/// the client a trusted proxy's header named) and one per connection closed ("connection ID closed: REASON"), also
/// for those refused before they opened, such as a PROXY header from an untrusted address.
/// </summary>
internal sealed class ConnectionLinesHandler(ConnectionHandler echo) : ConnectionHandler
{
    public override void OnConnected(Connection connection) =>
        Console.WriteLine($"connection {connection.Id} from {connection.RemoteEndPoint}");

    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body) => echo.OnFrame(connection, body);

    public override void OnFramesDelivered(Connection connection) => echo.OnFramesDelivered(connection);

    public override void OnDisconnected(Connection connection, DisconnectInfo info) =>
        Console.WriteLine($"connection {connection.Id} closed: {info.Reason} (peer {connection.RemoteEndPoint}, {info.UnsentFrames} frame(s) unsent)");
}
