using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Berth.Zmq;

/// <summary>
/// The single-owner guard. The thread that last claimed the socket (its owner) claims it again with plain reads and
/// writes: it marks its own per-thread slot (one pinned <see langword="long"/>, found through a thread-static address)
/// as inside this socket, then checks that it still owns the socket and that the socket is idle. Any other claim (another thread, a poll, a dispose) goes through the state word with a
/// compare-and-swap, makes itself the owner, and then issues a process-wide memory barrier before looking at the
/// previous owner's slot. That barrier pairs with the owner's store-then-load, so of two racing claims at least one
/// sees the other and refuses: the owner's repeated calls pay no interlocked instruction, and only a change of thread
/// pays, more than a compare-and-swap did.
/// </summary>
public sealed unsafe partial class ZmqSocket
{
    /// <summary>
    /// The address of the calling thread's slot (0 before its first claim). A thread-static address rather than a
    /// reference: the owner's fast path reads it with one thread-local load, where a reference thread static sits behind
    /// the runtime's array of references and the slot object behind that (docs/decisions/zmq-per-message.md).
    /// </summary>
    [ThreadStatic]
    private static nint t_slot;

    /// <summary>The calling thread's slot itself, pinned so that <see cref="t_slot"/> stays its address; kept alive by the thread.</summary>
    [ThreadStatic]
    private static long[]? t_slotMemory;

    /// <summary>The last number given to a socket; a slot names the socket it is inside by number (0: none).</summary>
    private static long s_lastNumber;

    /// <summary>
    /// This socket's number, unique in the process. A slot stores it rather than a reference: a reference store into a
    /// heap object pays the GC's write barrier, on every claim of the owner's fast path.
    /// </summary>
    private readonly long _number = Interlocked.Increment(ref s_lastNumber);

    /// <summary>The address of the owner's slot, compared on the owner's fast path; 0 before the first call.</summary>
    private nint _owner;

    /// <summary>
    /// The owner's slot, read by the other claims (always while they hold the state word) and keeping the slot alive
    /// while the socket names it, after its thread has ended too.
    /// </summary>
    private long[]? _ownerSlot;

    /// <summary>Claims the socket for one call.</summary>
    internal void Enter()
    {
        var caller = t_slot;
        if (caller != 0 && Volatile.Read(ref _owner) == caller && *(long*)caller == Outside)
        {
            Volatile.Write(ref *(long*)caller, _number);
            if (Volatile.Read(ref _owner) == caller && Volatile.Read(ref _state) == Idle)
            {
                return;
            }

            Volatile.Write(ref *(long*)caller, Outside);
        }

        // A thread already inside another socket (a call made while a poll holds sockets) keeps this claim in the state
        // word: its slot names one socket at a time.
        ClaimByState(own: caller == 0 || *(long*)caller == Outside);
    }

    /// <summary>Gives the socket back; only the claiming thread can, so plain reads suffice.</summary>
    internal void Exit()
    {
        var caller = t_slot;
        if (caller != 0 && *(long*)caller == _number)
        {
            Volatile.Write(ref *(long*)caller, Outside);
            return;
        }

        if (_state == Busy)
        {
            Volatile.Write(ref _state, Idle);
        }
    }

    /// <summary>The value of a slot when its thread holds no socket by it.</summary>
    private const long Outside = 0;

    /// <summary>The calling thread's slot, created on its first claim.</summary>
    private static long[] CallerSlot() => t_slotMemory ?? CreateCallerSlot();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long[] CreateCallerSlot()
    {
        var slot = GC.AllocateArray<long>(1, pinned: true);
        t_slotMemory = slot;
        t_slot = (nint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(slot));
        return slot;
    }

    /// <summary>
    /// Claims the socket through the state word. With <paramref name="own"/>, the caller becomes the owner and ends
    /// holding the socket by its slot; otherwise it ends holding it by the Busy state.
    /// </summary>
    private void ClaimByState(bool own)
    {
        var caller = CallerSlot();
        var previous = Interlocked.CompareExchange(ref _state, Busy, Idle);
        if (previous != Idle)
        {
            ThrowNotIdle(previous);
        }

        var owner = Volatile.Read(ref _ownerSlot);
        if (own)
        {
            _ownerSlot = caller;
            Volatile.Write(ref _owner, t_slot);
        }

        if (owner is not null && owner != caller)
        {
            // Makes the previous owner's slot store visible here, and the state and owner written above visible to
            // it, whatever order its processor kept them in.
            Interlocked.MemoryBarrierProcessWide();
            if (Volatile.Read(ref owner[0]) == _number)
            {
                // The owner stays the owner: a later claim must look at its slot again while it is inside.
                _ownerSlot = owner;
                Volatile.Write(ref _owner, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(owner)));
                Volatile.Write(ref _state, Idle);
                ThrowNotIdle(Busy);
            }
        }

        if (own)
        {
            Volatile.Write(ref caller[0], _number);
            Volatile.Write(ref _state, Idle);
        }
    }

    /// <summary>True when the owner (another thread) is inside a call; asked by a dispose that just set Closed.</summary>
    private bool OwnerIsInside()
    {
        var owner = Volatile.Read(ref _ownerSlot);
        if (owner is null || owner == t_slotMemory)
        {
            return false;
        }

        Interlocked.MemoryBarrierProcessWide();
        return Volatile.Read(ref owner[0]) == _number;
    }

    /// <summary>
    /// Moves the caller's claim from its slot to the Busy state, before an async operation waits: the wait ends on
    /// another thread, and the slot is free for the caller's next call on another socket.
    /// </summary>
    private void HoldByState()
    {
        var caller = t_slot;
        if (caller == 0 || *(long*)caller != _number)
        {
            return;
        }

        // Only a claim that is about to see this slot and back off can hold the state word now.
        var spin = default(SpinWait);
        while (Interlocked.CompareExchange(ref _state, Busy, Idle) != Idle)
        {
            spin.SpinOnce();
        }

        Volatile.Write(ref *(long*)caller, Outside);
    }
}
