using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using Berth.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;

namespace Berth.Messages;

/// <summary>Typed handlers in a <see cref="PacketRouter"/>, beside its raw <see cref="PacketRouter.Map"/> handlers.</summary>
public static class MessageRouting
{
    /// <summary>
    /// Routes packets with <typeparamref name="TMessage"/>'s id to <paramref name="handler"/>, decoded. A body the
    /// contract rejects closes only that connection with <see cref="DisconnectReason.MalformedMessage"/>, logging the
    /// field, offset and fault; the <see cref="MessageFormatException"/> is the <see cref="DisconnectInfo.Error"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The id is already mapped.</exception>
    public static PacketRouter On<TMessage>(this PacketRouter router, MessageHandler<TMessage> handler)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(router);
        ArgumentNullException.ThrowIfNull(handler);
        return router.Map(TMessage.MessageId, (Connection connection, in ReadOnlySequence<byte> payload) => Dispatch(connection, payload, handler));
    }

    /// <summary>
    /// Routes packets with <paramref name="codec"/>'s id to <paramref name="handler"/>, decoded by the codec; a body it
    /// rejects closes only that connection as for a generated contract.
    /// </summary>
    /// <exception cref="ArgumentException">The id is already mapped.</exception>
    public static PacketRouter On<TMessage>(this PacketRouter router, MessageCodec<TMessage> codec, MessageHandler<TMessage> handler)
    {
        ArgumentNullException.ThrowIfNull(router);
        ArgumentNullException.ThrowIfNull(codec);
        ArgumentNullException.ThrowIfNull(handler);
        return router.Map(codec.MessageId, (Connection connection, in ReadOnlySequence<byte> payload) =>
        {
            if (TryDecode(connection, codec, payload, out var message))
            {
                handler(connection, message);
            }
        });
    }

    private static void Dispatch<TMessage>(Connection connection, in ReadOnlySequence<byte> payload, MessageHandler<TMessage> handler)
        where TMessage : IMessage<TMessage>
    {
        if (TryDecode<TMessage>(connection, payload, out var message))
        {
            handler(connection, message);
        }
    }

    /// <summary>Decodes a routed body with a codec, or closes the connection for it with <see cref="DisconnectReason.MalformedMessage"/>.</summary>
    internal static bool TryDecode<TMessage>(Connection connection, MessageCodec<TMessage> codec, in ReadOnlySequence<byte> payload, [MaybeNullWhen(false)] out TMessage message)
    {
        try
        {
            message = codec.Read(payload);
            return true;
        }
        catch (MessageFormatException e)
        {
            connection.Lifetime.CloseForMalformedMessage(e);
            message = default;
            return false;
        }
    }

    /// <summary>Decodes a routed body, or closes the connection for it with <see cref="DisconnectReason.MalformedMessage"/>.</summary>
    internal static bool TryDecode<TMessage>(Connection connection, in ReadOnlySequence<byte> payload, [MaybeNullWhen(false)] out TMessage message)
        where TMessage : IMessage<TMessage>
    {
        if (MessageReading.TryRead(payload, out message, out var error))
        {
            return true;
        }

        connection.Lifetime.CloseForMalformedMessage(error);
        return false;
    }
}
