using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// The readiness reactor for every OS libzmq runs on: one thread blocked in <c>zmq_poll</c> over the raw
/// <c>ZMQ_FD</c> of each socket with a waiting operation, plus the read end of a loopback TCP pair that
/// <see cref="Watch"/>, <see cref="Remove"/> and <see cref="Dispose"/> write one byte to so the poll set is rebuilt.
/// <c>zmq_poll</c> on a raw descriptor is level-triggered and a <c>ZMQ_FD</c> stays readable until its socket
/// processes its commands, so a registration is watched once per wait: it leaves the poll set when it fires.
/// The item arrays are preallocated and grow only with the number of registrations. When it runs continuations inline,
/// a <see cref="ReactorWatchdog"/> moves the polling to a new thread if one of them holds it.
/// </summary>
internal sealed class PollReadinessReactor : ReactorThread, IReadinessReactor
{
    private const int WakeItem = 0;
    private const int InitialRegistrations = 8;

    private readonly Socket _wakeReader;
    private readonly Socket _wakeWriter;
    private readonly nint _wakeFd;

    /// <summary>One item per registration after the wake pair's, which is item 0.</summary>
    private readonly PollItemArray _items = new(InitialRegistrations + 1);
    private Registration[] _registrations = new Registration[InitialRegistrations];
    private ulong[] _itemIds = new ulong[InitialRegistrations + 1];
    private ZmqReadiness?[] _fired = new ZmqReadiness?[InitialRegistrations];
    private uint _generation;
    private int _wakePending;
    private ZmqException? _failure;

    /// <param name="inline">True when woken continuations run on the reactor thread, which then needs a watchdog.</param>
    public PollReadinessReactor(bool inline)
        : base(inline, "berth-zmq-poll-readiness")
    {
        (_wakeReader, _wakeWriter) = ConnectedPair();
        _wakeReader.Blocking = false;
        _wakeFd = _wakeReader.Handle;
        Start();
    }

    public ulong Add(nint fd, ZmqReadiness readiness)
    {
        lock (Sync)
        {
            var slot = Array.FindIndex(_registrations, r => r.Owner is null);
            if (slot < 0)
            {
                slot = _registrations.Length;
                Array.Resize(ref _registrations, slot * 2);
            }

            var generation = ++_generation;
            _registrations[slot] = new Registration(readiness, fd, generation);
            return Id(slot, generation);
        }
    }

    public void Watch(ulong id)
    {
        lock (Sync)
        {
            if (_failure is not null)
            {
                throw _failure;
            }

            ref var registration = ref Find(id);
            if (Unsafe.IsNullRef(ref registration) || registration.Watching)
            {
                return;
            }

            registration.Watching = true;
        }

        Wake();
    }

    public void Remove(nint fd, ulong id)
    {
        lock (Sync)
        {
            ref var registration = ref Find(id);
            if (Unsafe.IsNullRef(ref registration))
            {
                return;
            }

            registration = default;
        }

        Wake();
    }

    public void Dispose()
    {
        if (!BeginStop())
        {
            return;
        }

        ReadOnlySpan<byte> one = [1];
        _wakeWriter.Send(one, SocketFlags.None, out _);
        JoinThread();
        _wakeWriter.Dispose();
        _wakeReader.Dispose();
        _items.Dispose();
    }

    private static ulong Id(int slot, uint generation) => ((ulong)generation << 32) | (uint)slot;

    /// <summary>A loopback TCP pair: the one signaler every OS lets <c>zmq_poll</c> watch as a raw descriptor.</summary>
    private static (Socket Reader, Socket Writer) ConnectedPair()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        var writer = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        writer.Connect(listener.LocalEndPoint!);
        return (listener.Accept(), writer);
    }

    private ref Registration Find(ulong id)
    {
        var slot = (int)(uint)id;
        ref var registration = ref _registrations[slot];
        if (registration.Owner is null || registration.Generation != (uint)(id >> 32))
        {
            return ref Unsafe.NullRef<Registration>();
        }

        return ref registration;
    }

    /// <summary>One byte at most in flight: the reactor rebuilds its poll set after every wake anyway.</summary>
    private void Wake()
    {
        if (Stopping)
        {
            return;
        }

        if (Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            ReadOnlySpan<byte> one = [1];
            _wakeWriter.Send(one, SocketFlags.None, out _);
        }
    }

    protected override unsafe void Run()
    {
        Span<byte> drain = stackalloc byte[64];
        while (!Stopping)
        {
            var count = BuildPollSet();
            if (LibZmq.PollRaw(_items.Pointer, count, -1) < 0)
            {
                var error = LibZmq.Errno();
                if (error == ZmqErrors.Interrupted)
                {
                    continue;
                }

                FailAll(ZmqException.FromErrno("zmq_poll"));
                return;
            }

            if (_items.IsReady(WakeItem))
            {
                // Drain before clearing the flag: a byte written after the clear must stay to wake the next poll.
                while (_wakeReader.Receive(drain, SocketFlags.None, out _) > 0)
                {
                }

                Volatile.Write(ref _wakePending, 0);
            }

            var fired = Collect(count);
            for (var i = 0; i < fired; i++)
            {
                var owner = _fired[i]!;
                _fired[i] = null;

                // Once another thread has taken over, this one must not touch the poll state again.
                if (!Deliver(owner))
                {
                    return;
                }
            }
        }
    }

    protected override ZmqReadiness[] Registered() => [.. _registrations.Where(r => r.Owner is not null).Select(r => r.Owner!)];

    private int BuildPollSet()
    {
        lock (Sync)
        {
            // Only this thread grows what zmq_poll reads and the owners it signals, and never while it uses them.
            if (_itemIds.Length <= _registrations.Length)
            {
                Array.Resize(ref _itemIds, _registrations.Length + 1);
                Array.Resize(ref _fired, _registrations.Length);
                _items.EnsureCapacity(_registrations.Length + 1);
            }

            _items.SetInput(WakeItem, _wakeFd);
            var count = 1;
            for (var slot = 0; slot < _registrations.Length; slot++)
            {
                ref var registration = ref _registrations[slot];
                if (registration.Watching)
                {
                    _items.SetInput(count, registration.Fd);
                    _itemIds[count] = Id(slot, registration.Generation);
                    count++;
                }
            }

            return count;
        }
    }

    /// <summary>Takes every fired registration out of the poll set; the owners are signalled outside the lock.</summary>
    private int Collect(int count)
    {
        var fired = 0;
        lock (Sync)
        {
            for (var item = 1; item < count; item++)
            {
                if (!_items.IsReady(item))
                {
                    continue;
                }

                ref var registration = ref Find(_itemIds[item]);
                if (!Unsafe.IsNullRef(ref registration) && registration.Watching)
                {
                    registration.Watching = false;
                    _fired[fired++] = registration.Owner;
                }
            }
        }

        return fired;
    }

    private void FailAll(ZmqException failure)
    {
        var owners = 0;
        lock (Sync)
        {
            _failure = failure;
            if (_fired.Length < _registrations.Length)
            {
                Array.Resize(ref _fired, _registrations.Length);
            }

            foreach (var registration in _registrations)
            {
                if (registration.Owner is not null)
                {
                    _fired[owners++] = registration.Owner;
                }
            }
        }

        for (var i = 0; i < owners; i++)
        {
            _fired[i]!.Fail(failure);
        }
    }

    private struct Registration(ZmqReadiness owner, nint fd, uint generation)
    {
        public readonly ZmqReadiness? Owner = owner;
        public readonly nint Fd = fd;
        public readonly uint Generation = generation;
        public bool Watching;
    }
}
