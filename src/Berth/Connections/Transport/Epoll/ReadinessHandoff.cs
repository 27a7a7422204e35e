namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// Hands an operation that would block from its caller to the event loop without a lock. The socket is registered
/// edge-triggered, so an edge that fires between a failed attempt and the decision to wait would be lost; both sides
/// therefore publish first and look second (each step a full fence): the loop counts the edge, then takes the waiting
/// operation; the caller marks itself waiting, then checks whether an edge was counted since it observed. At least one
/// of them sees the other, and the exchange on the waiting flag lets exactly one of them retry the operation.
/// </summary>
internal struct ReadinessHandoff
{
    private int _edges;
    private int _waiting;

    /// <summary>Read before an attempt; pass to <see cref="TryWait"/> if the attempt would block.</summary>
    public int Observe() => Volatile.Read(ref _edges);

    /// <summary>
    /// After an attempt that would block: true when the operation now belongs to the loop (it retries it on the next
    /// edge, or already took it), false when an edge came since <paramref name="observed"/> and the caller retries.
    /// </summary>
    public bool TryWait(int observed)
    {
        Interlocked.Exchange(ref _waiting, 1);
        if (Volatile.Read(ref _edges) == observed)
        {
            return true;
        }

        return Interlocked.Exchange(ref _waiting, 0) == 0;
    }

    /// <summary>On the loop: counts an edge; true when an operation was waiting and the loop must now retry it.</summary>
    public bool Signal()
    {
        Interlocked.Increment(ref _edges);
        return Interlocked.Exchange(ref _waiting, 0) == 1;
    }
}
