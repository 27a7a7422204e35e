using System.Buffers;

namespace Berth.Tcp;

/// <summary>
/// Sends every frame back with a byte-identical body, as <c>berth serve</c> does. A peer that sends faster than it
/// reads fills its queue; rather than drop an echo, the connection is then closed as a slow consumer.
/// </summary>
public sealed class EchoHandler : ConnectionHandler
{
    /// <inheritdoc />
    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        if (!connection.TrySend(body))
        {
            connection.Close(DisconnectReason.SlowConsumer, null, flush: false);
        }
    }
}
