using Berth.Connections;

namespace Berth.Messages;

/// <summary>Handles one typed message; <paramref name="message"/> was decoded from the frame and is the handler's to keep.</summary>
public delegate void MessageHandler<TMessage>(Connection connection, in TMessage message);

/// <summary>
/// Handles one typed message with the connection's own state: <paramref name="state"/> is the object
/// <see cref="MessageRouter{TState}"/> made for <paramref name="connection"/>, the same one for every message it sends.
/// </summary>
public delegate void MessageHandler<TMessage, in TState>(Connection connection, TState state, in TMessage message)
    where TState : class;
