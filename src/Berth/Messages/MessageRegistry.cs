using System.Diagnostics.CodeAnalysis;

namespace Berth.Messages;

/// <summary>
/// The message contracts one application speaks, by id. Each assembly with contracts has a generated
/// <c>MessageCatalog.Register</c> that adds all of them; registering two contracts with one id, from one assembly or
/// two, throws <see cref="MessageIdConflictException"/> there and then rather than misrouting later. Register everything
/// before the registry is shared: it is not synchronized.
/// </summary>
public sealed class MessageRegistry
{
    private readonly Dictionary<int, MessageTypeInfo> _byId = [];

    /// <summary>The contracts registered so far.</summary>
    public IReadOnlyCollection<MessageTypeInfo> Types => _byId.Values;

    /// <summary>Adds <typeparamref name="TMessage"/>; adding the same type again does nothing.</summary>
    /// <exception cref="MessageIdConflictException">Another contract already has the id.</exception>
    public MessageRegistry Add<TMessage>()
        where TMessage : IMessage<TMessage>
    {
        var info = new MessageTypeInfo(TMessage.MessageId, typeof(TMessage), TMessage.ByteOrder, TMessage.Bounds);
        if (_byId.TryGetValue(info.Id, out var existing))
        {
            if (existing.Type != info.Type)
            {
                throw new MessageIdConflictException(existing, info);
            }

            return this;
        }

        _byId.Add(info.Id, info);
        return this;
    }

    /// <summary>Finds the contract registered with <paramref name="id"/>.</summary>
    public bool TryGet(int id, [NotNullWhen(true)] out MessageTypeInfo? info) => _byId.TryGetValue(id, out info);
}
