using System.Collections.Concurrent;
using Berth.Connections;
using Berth.Connections.Packets;
using Berth.Messages;
using Berth.Messages.Requests;

namespace ChatRoom;

/// <summary>The server's side: who is in the room, under which name, and what they say to it.</summary>
public sealed class Room : PacketRouter
{
    private readonly ConcurrentDictionary<string, Connection> _byName = new();
    private readonly ConcurrentDictionary<Connection, string> _members = new();

    public Room()
    {
        this.OnRequest<Join, Welcome>(Enter);
        this.On<Say>(Broadcast);
    }

    /// <summary>A member that leaves, or is dropped, frees its name.</summary>
    public override void OnDisconnected(Connection connection, DisconnectInfo info)
    {
        if (_members.TryRemove(connection, out var name))
        {
            _byName.TryRemove(name, out _);
        }
    }

    private Welcome Enter(Connection connection, in Join join)
    {
        if (!_byName.TryAdd(join.Name, connection))
        {
            throw new RequestRejectedException(JoinErrors.NameTaken, $"{join.Name} is already in the room");
        }

        _members[connection] = join.Name;
        return new Welcome { Members = _members.Count };
    }

    private void Broadcast(Connection connection, in Say say)
    {
        if (!_members.TryGetValue(connection, out var name))
        {
            connection.Abort(DisconnectReason.UnknownMessage);
            return;
        }

        var said = new Said { From = name, Text = say.Text };
        foreach (var (member, _) in _members)
        {
            member.TrySend(said);
        }
    }
}
