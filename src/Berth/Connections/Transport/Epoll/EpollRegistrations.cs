namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// The sockets one loop watches, by slot. The epoll data word carries the slot and a generation, so an event fetched
/// for a socket that was removed meanwhile (its slot perhaps reused) finds no match and is dropped. Changes take a
/// lock; the loop reads without one.
/// </summary>
internal sealed class EpollRegistrations
{
    private readonly Lock _lock = new();
    private readonly Stack<int> _free = new();
    private EpollTransport?[] _slots = new EpollTransport?[64];
    private int _used;
    private uint _generation;

    /// <summary>Takes a slot for <paramref name="transport"/>; returns the data word to register with epoll.</summary>
    public ulong Add(EpollTransport transport)
    {
        lock (_lock)
        {
            if (!_free.TryPop(out var slot))
            {
                if (_used == _slots.Length)
                {
                    var grown = new EpollTransport?[_slots.Length * 2];
                    _slots.CopyTo(grown, 0);
                    Volatile.Write(ref _slots, grown);
                }

                slot = _used++;
            }

            var token = ((ulong)++_generation << 32) | (uint)slot;
            transport.Token = token;
            Volatile.Write(ref _slots[slot], transport);
            return token;
        }
    }

    public void Remove(ulong token)
    {
        lock (_lock)
        {
            var slot = (int)(uint)token;
            _slots[slot] = null;
            _free.Push(slot);
        }
    }

    /// <summary>The socket an event's data word names, or null when it was removed since.</summary>
    public EpollTransport? Find(ulong token)
    {
        var transport = Volatile.Read(ref _slots)[(int)(uint)token];
        return transport?.Token == token ? transport : null;
    }
}
