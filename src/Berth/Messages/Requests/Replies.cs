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
    /// path checked before delivering the request; after an asynchronous handler, a full queue is answered by the
    /// connection's <see cref="FullQueuePolicy"/> (<see cref="FullQueuePolicy.Reject"/> closes the connection as a
    /// slow consumer, since the reply cannot be dropped silently).
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

    private static async Task SendWhenRoomAsync<TState>(Connection connection, TState state, FrameWriter<TState> write)
    {
        try
        {
            await connection.SendAsync(state, write).ConfigureAwait(false);
        }
        catch (SendQueueFullException)
        {
            connection.Lifetime.CloseByPolicy(DisconnectReason.SlowConsumer);
        }
        catch (ConnectionClosedException)
        {
            // The close fails the peer's pending requests on its side; nothing is left to report here.
        }
    }
}
