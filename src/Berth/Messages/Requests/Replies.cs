using Berth.Buffers;
using Berth.Connections;

namespace Berth.Messages.Requests;

/// <summary>How a request handler's answer goes back: a reply, or an error reply for a <see cref="RequestRejectedException"/>.</summary>
internal static class Replies
{
    private static readonly FrameWriter<(long Correlation, RequestRejectedException Error)> ErrorFrame = static (ref PacketWriter writer, (long Correlation, RequestRejectedException Error) state) =>
    {
        RequestEnvelope.Write(ref writer, new EnvelopeHeader(EnvelopeKind.Error, state.Correlation, state.Error.Code));
        var message = state.Error.Message;
        MessageWire.WriteString(ref writer, message.Length > RequestRejectedException.MaxMessageLength ? message[..RequestRejectedException.MaxMessageLength] : message);
    };

    /// <summary>
    /// Queues the reply. Inside the receive batch the queue takes it whenever it is under its limit, which the receive
    /// path checked before delivering the request. After an asynchronous handler the queue may be full; the reply then
    /// waits for room, whatever the <see cref="FullQueuePolicy"/> (but <see cref="FullQueuePolicy.CloseAsSlowConsumer"/>,
    /// which has closed the connection): a reply cannot be dropped silently, and the replies waiting so are bounded,
    /// since no request is delivered while the queue is full and each came from one of the bounded in-flight handlers.
    /// </summary>
    public static void Send<TReply>(Connection connection, long correlation, in TReply reply)
        where TReply : IMessage<TReply>
    {
        if (!connection.TrySend((correlation, reply), EnvelopeFrames<TReply>.Reply) && connection.IsConnected)
        {
            _ = SendWhenRoomAsync(connection, (correlation, reply), EnvelopeFrames<TReply>.Reply);
        }
    }

    public static void SendError(Connection connection, long correlation, RequestRejectedException error)
    {
        if (!connection.TrySend((correlation, error), ErrorFrame) && connection.IsConnected)
        {
            _ = SendWhenRoomAsync(connection, (correlation, error), ErrorFrame);
        }
    }

    /// <summary>Retries until the queue takes the frame or the connection closed (which fails the peer's request on its side).</summary>
    private static async Task SendWhenRoomAsync<TState>(Connection connection, TState state, FrameWriter<TState> write)
    {
        do
        {
            await connection.RoomAvailable().ConfigureAwait(false);
        }
        while (!connection.TrySend(state, write) && connection.IsConnected);
    }
}
