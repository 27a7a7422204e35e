using System.Buffers;
using Berth.Connections;
using Berth.Connections.Packets;

namespace Berth.Messages;

/// <summary>
/// A <see cref="PacketRouter"/> whose typed handlers get per-connection state of type <typeparamref name="TState"/>
/// instead of casting <see cref="Connection.Tag"/>, which stays the application's. The state is made once per
/// connection, when it first asks for it, and lives as long as the connection; a message costs no allocation for it.
/// </summary>
/// <typeparam name="TState">
/// A class, so handlers share one mutable object per connection and nothing is boxed or copied per message.
/// </typeparam>
public class MessageRouter<TState> : PacketRouter
    where TState : class
{
    private readonly Func<Connection, TState> _createState;

    /// <summary>Creates a router that makes each connection's state with <paramref name="createState"/>.</summary>
    public MessageRouter(Func<Connection, TState> createState)
    {
        ArgumentNullException.ThrowIfNull(createState);
        _createState = createState;
    }

    /// <summary>
    /// Routes packets with <typeparamref name="TMessage"/>'s id to <paramref name="handler"/>, decoded, with the
    /// connection's state; a rejected body closes the connection as <see cref="MessageRouting.On{TMessage}(PacketRouter, MessageHandler{TMessage})"/> does.
    /// </summary>
    /// <exception cref="ArgumentException">The id is already mapped.</exception>
    public MessageRouter<TState> On<TMessage>(MessageHandler<TMessage, TState> handler)
        where TMessage : IMessage<TMessage>
    {
        ArgumentNullException.ThrowIfNull(handler);
        Map(TMessage.MessageId, (Connection connection, in ReadOnlySequence<byte> payload) => Dispatch(connection, payload, handler));
        return this;
    }

    /// <summary>As <see cref="On{TMessage}(MessageHandler{TMessage, TState})"/> for a type <paramref name="codec"/> reads.</summary>
    /// <exception cref="ArgumentException">The id is already mapped.</exception>
    public MessageRouter<TState> On<TMessage>(MessageCodec<TMessage> codec, MessageHandler<TMessage, TState> handler)
    {
        ArgumentNullException.ThrowIfNull(codec);
        ArgumentNullException.ThrowIfNull(handler);
        Map(codec.MessageId, (Connection connection, in ReadOnlySequence<byte> payload) =>
        {
            if (MessageRouting.TryDecode(connection, codec, payload, out var message))
            {
                handler(connection, StateOf(connection), message);
            }
        });
        return this;
    }

    /// <summary>
    /// The state of <paramref name="connection"/>, made on the first call; safe from any thread, and usable from
    /// <see cref="ConnectionHandler.OnConnected"/> and <see cref="ConnectionHandler.OnDisconnected"/>.
    /// </summary>
    public TState StateOf(Connection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        // A connection has one handler, so whatever state it carries is this router's.
        var state = Volatile.Read(ref connection.RouterState);
        if (state is null)
        {
            var made = _createState(connection);
            state = Interlocked.CompareExchange(ref connection.RouterState, made, null) ?? made;
        }

        return (TState)state;
    }

    private void Dispatch<TMessage>(Connection connection, in ReadOnlySequence<byte> payload, MessageHandler<TMessage, TState> handler)
        where TMessage : IMessage<TMessage>
    {
        if (MessageRouting.TryDecode<TMessage>(connection, payload, out var message))
        {
            handler(connection, StateOf(connection), message);
        }
    }
}
