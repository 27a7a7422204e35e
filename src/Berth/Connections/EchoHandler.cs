using System.Buffers;

namespace Berth.Connections;

/// <summary>
/// Sends every frame back with a byte-identical body, as <c>berth serve</c> does. On the epoll transport the echo is
/// written from the receive ring it arrived in, not copied (see <see cref="Send.SendQueue.LendReceiveBuffer"/>), since
/// it is sent as the sequence it was handed. A reply sent from the receive loop
/// is refused only when the queue is already over its limit, which the receive loop's pause rules out unless other
/// threads fill the queue too; rather than drop an echo, the connection is then closed as a slow consumer.
/// </summary>
internal sealed class EchoHandler : ConnectionHandler
{
    /// <inheritdoc />
    public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
    {
        if (!connection.TrySend(body))
        {
            connection.Abort(DisconnectReason.SlowConsumer);
        }
    }
}
