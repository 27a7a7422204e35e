using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages;

namespace Berth.Cli.Tcp;

/// <summary>
/// The handler of <c>berth serve --typed</c>: every frame is read as an <see cref="EchoMessage"/> through the generated
/// reader and sent back through the generated writer, so the echo is byte-identical and shows what the typed layer
/// costs over the raw echo. Any other id closes the connection as <see cref="DisconnectReason.UnknownMessage"/>, a body
/// the contract rejects as <see cref="DisconnectReason.MalformedMessage"/>.
/// </summary>
internal static class TypedEchoRouter
{
    public static PacketRouter Create() => new PacketRouter().On(static (Connection connection, in EchoMessage message) =>
    {
        // As the raw echo: a full queue from the receive loop means other threads filled it too; close rather than drop.
        if (!connection.TrySend(message))
        {
            connection.Abort(DisconnectReason.SlowConsumer);
        }
    });
}
