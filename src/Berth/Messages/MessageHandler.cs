using Berth.Connections;

namespace Berth.Messages;

/// <summary>Handles one typed message; <paramref name="message"/> was decoded from the frame and is the handler's to keep.</summary>
public delegate void MessageHandler<TMessage>(Connection connection, in TMessage message)
    where TMessage : IMessage<TMessage>;
