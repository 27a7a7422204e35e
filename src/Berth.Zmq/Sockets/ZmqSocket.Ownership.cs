using System.Runtime.CompilerServices;

namespace Berth.Zmq;

/// <summary>
/// The single-owner guard. The thread that last claimed the socket (its owner) claims it again with plain reads and
/// writes: it marks its own per-thread slot as inside this socket, then checks that it still owns the socket and that
/// the socket is idle. Any other claim (another thread, a poll, a dispose) goes through the state word with a
/// compare-and-swap, makes itself the owner, and then issues a process-wide memory barrier before looking at the
/// previous owner's slot. That barrier pairs with the owner's store-then-load, so of two racing claims at least one
/// sees the other and refuses: the owner's repeated calls pay no interlocked instruction, and only a change of thread
/// pays, more than a compare-and-swap did.
/// </summary>
public sealed partial class ZmqSocket
{
    [ThreadStatic]
    private static CallerSlot? t_caller;

    /// <summary>The last number given to a socket; a slot names the socket it is inside by number (0: none).</summary>
    private static long s_lastNumber;

    /// <summary>
    /// This socket's number, unique in the process. A slot stores it rather than a reference: a reference store into a
    /// heap object pays the GC's write barrier, on every claim of the owner's fast path.
    /// </summary>
    private readonly long _number = Interlocked.Increment(ref s_lastNumber);

    /// <summary>The slot of the thread that last claimed the socket; null before the first call.</summary>
    private CallerSlot? _owner;

    /// <summary>The calling thread's slot. Kept small enough to inline into every claim: a profile of 64 B PUSH/PULL
    /// showed the lazily creating getter as a call of its own on every send and receive.</summary>
    private static CallerSlot Caller
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_caller ?? CreateCaller();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static CallerSlot CreateCaller() => t_caller = new CallerSlot();

    /// <summary>Claims the socket for one call.</summary>
    internal void Enter()
    {
        var caller = Caller;
        if (Volatile.Read(ref _owner) == caller && caller.Inside == CallerSlot.Outside)
        {
            Volatile.Write(ref caller.Inside, _number);
            if (Volatile.Read(ref _owner) == caller && Volatile.Read(ref _state) == Idle)
            {
                return;
            }

            Volatile.Write(ref caller.Inside, CallerSlot.Outside);
        }

        // A thread already inside another socket (a call made while a poll holds sockets) keeps this claim in the state
        // word: its slot names one socket at a time.
        ClaimByState(caller, own: caller.Inside == CallerSlot.Outside);
    }

    /// <summary>Gives the socket back; only the claiming thread can, so plain reads suffice.</summary>
    internal void Exit()
    {
        var caller = t_caller;
        if (caller is not null && caller.Inside == _number)
        {
            Volatile.Write(ref caller.Inside, CallerSlot.Outside);
            return;
        }

        if (_state == Busy)
        {
            Volatile.Write(ref _state, Idle);
        }
    }

    /// <summary>
    /// Claims the socket through the state word. With <paramref name="own"/>, the caller becomes the owner and ends
    /// holding the socket by its slot; otherwise it ends holding it by the Busy state.
    /// </summary>
    private void ClaimByState(CallerSlot caller, bool own)
    {
        var previous = Interlocked.CompareExchange(ref _state, Busy, Idle);
        if (previous != Idle)
        {
            ThrowNotIdle(previous);
        }

        var owner = Volatile.Read(ref _owner);
        if (own)
        {
            Volatile.Write(ref _owner, caller);
        }

        if (owner is not null && owner != caller)
        {
            // Makes the previous owner's slot store visible here, and the state and owner written above visible to
            // it, whatever order its processor kept them in.
            Interlocked.MemoryBarrierProcessWide();
            if (Volatile.Read(ref owner.Inside) == _number)
            {
                // The owner stays the owner: a later claim must look at its slot again while it is inside.
                Volatile.Write(ref _owner, owner);
                Volatile.Write(ref _state, Idle);
                ThrowNotIdle(Busy);
            }
        }

        if (own)
        {
            Volatile.Write(ref caller.Inside, _number);
            Volatile.Write(ref _state, Idle);
        }
    }

    /// <summary>True when the owner (another thread) is inside a call; asked by a dispose that just set Closed.</summary>
    private bool OwnerIsInside()
    {
        var owner = Volatile.Read(ref _owner);
        if (owner is null || owner == t_caller)
        {
            return false;
        }

        Interlocked.MemoryBarrierProcessWide();
        return Volatile.Read(ref owner.Inside) == _number;
    }

    /// <summary>
    /// Moves the caller's claim from its slot to the Busy state, before an async operation waits: the wait ends on
    /// another thread, and the slot is free for the caller's next call on another socket.
    /// </summary>
    private void HoldByState()
    {
        var caller = t_caller;
        if (caller is null || caller.Inside != _number)
        {
            return;
        }

        // Only a claim that is about to see this slot and back off can hold the state word now.
        var spin = default(SpinWait);
        while (Interlocked.CompareExchange(ref _state, Busy, Idle) != Idle)
        {
            spin.SpinOnce();
        }

        Volatile.Write(ref caller.Inside, CallerSlot.Outside);
    }

    /// <summary>Which socket a thread is inside, if it holds one by its slot.</summary>
    private sealed class CallerSlot
    {
        /// <summary>The value of <see cref="Inside"/> when the thread holds no socket by its slot.</summary>
        public const long Outside = 0;

        /// <summary>The number of the socket the thread is inside, or <see cref="Outside"/>.</summary>
        public long Inside;
    }
}
