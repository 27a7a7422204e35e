using System.Buffers;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;

namespace Berth.Messages;

/// <summary>Typed handlers in a <see cref="PacketRouter"/>, beside its raw <see cref="PacketRouter.Map"/> handlers.</summary>
public static class MessageRouting
{
    /// <summary>
    /// Routes packets with <typeparamref name="TMessage"/>'s id to <paramref name="handler"/>, decoded. A body the
    /// contract rejects closes only that connection with <see cref="DisconnectReason.MalformedFrame"/>; the
    /// <see cref="MessageFormatException"/> naming the field, offset and fault is the <see cref="DisconnectInfo.Error"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The id is already mapped.</exception>
    public static PacketRouter On<TMessage>(this PacketRouter router, MessageHandler<TMessage> handler)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(router);
        ArgumentNullException.ThrowIfNull(handler);
        return router.Map(TMessage.MessageId, (Connection connection, in ReadOnlySequence<byte> payload) => Dispatch(connection, payload, handler));
    }

    private static void Dispatch<TMessage>(Connection connection, in ReadOnlySequence<byte> payload, MessageHandler<TMessage> handler)
        where TMessage : IMessage<TMessage>
    {
        TMessage message;
        try
        {
            var reader = new PacketReader(payload, TMessage.ByteOrder);
            message = TMessage.Read(ref reader);
        }
        catch (MessageFormatException e)
        {
            connection.Lifetime.Close(DisconnectReason.MalformedFrame, e, flush: false);
            return;
        }

        handler(connection, message);
    }
}
