using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// A libzmq context: the I/O threads and the registry of sockets. Thread-safe. Disposing it shuts it down,
/// closes every socket it created that is not in use, and waits until the rest are closed by their owners.
/// </summary>
public sealed class ZmqContext : IDisposable
{
    private const int IoThreadsOption = 1;
    private const int MaxSocketsOption = 2;

    private readonly ZmqContextHandle _handle;
    private readonly Lock _sync = new();
    private readonly HashSet<ZmqSocket> _sockets = [];
    private IReadinessReactor? _reactor;
    private bool _disposed;

    /// <summary>Creates a context.</summary>
    /// <param name="ioThreads">Background I/O threads; one is enough for about a gigabyte per second.</param>
    /// <param name="maxSockets">The most sockets the context may hold at once.</param>
    /// <exception cref="ZmqLibraryNotFoundException">libzmq is not installed.</exception>
    public ZmqContext(int ioThreads = 1, int maxSockets = 1023)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(ioThreads);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxSockets, 1);
        LibZmqLoader.EnsureLoaded();
        var context = LibZmq.CtxNew();
        if (context == 0)
        {
            throw ZmqException.FromErrno("zmq_ctx_new");
        }

        _handle = new ZmqContextHandle(context);
        Check(LibZmq.CtxSet(context, IoThreadsOption, ioThreads), "zmq_ctx_set(ZMQ_IO_THREADS)");
        Check(LibZmq.CtxSet(context, MaxSocketsOption, maxSockets), "zmq_ctx_set(ZMQ_MAX_SOCKETS)");
        PortableReactor = ReactorSelection.PortableRequested();
        InlineCompletions = ReactorSelection.InlineCompletionsRequested();
    }

    /// <summary>The number of I/O threads.</summary>
    public int IoThreads => Get(IoThreadsOption);

    /// <summary>The most sockets this context may hold at once.</summary>
    public int MaxSockets => Get(MaxSocketsOption);

    internal nint Pointer => _handle.DangerousGetHandle();

    /// <summary>Creates a socket of the given type, owned by the calling thread until handed over.</summary>
    /// <param name="type">The socket type.</param>
    /// <returns>The new socket.</returns>
    public ZmqSocket CreateSocket(ZmqSocketType type)
    {
        lock (_sync)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            var pointer = LibZmq.Socket(Pointer, (int)type);
            if (pointer == 0)
            {
                throw ZmqException.FromErrno($"zmq_socket({type})");
            }

            var socket = new ZmqSocket(this, new ZmqSocketHandle(pointer), type);
            _sockets.Add(socket);
            return socket;
        }
    }

    /// <summary>
    /// Makes every blocking call on this context's sockets, in any thread, fail with a <see cref="ZmqException"/>
    /// whose <see cref="ZmqException.IsContextTerminated"/> is true. Sockets must still be disposed.
    /// </summary>
    public void Shutdown()
    {
        lock (_sync)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            LibZmq.CtxShutdown(Pointer);
        }
    }

    /// <summary>Shuts the context down, closes its idle sockets and terminates it once every socket is closed.</summary>
    public void Dispose()
    {
        ZmqSocket[] sockets;
        lock (_sync)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            LibZmq.CtxShutdown(Pointer);
            sockets = [.. _sockets];
        }

        foreach (var socket in sockets)
        {
            socket.CloseFromContext();
        }

        _handle.Dispose();
        if (_reactor is not { } reactor)
        {
            return;
        }

        // A continuation run inline on the reactor thread may dispose the context; that thread cannot wait for itself.
        if (reactor.OnReactorThread)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static r => r.Dispose(), reactor, preferLocal: false);
        }
        else
        {
            reactor.Dispose();
        }
    }

    /// <summary>
    /// Whether async waits go through the portable <c>zmq_poll</c> reactor rather than epoll; taken from
    /// <see cref="ReactorSelection"/> and only changed (by tests) before the first async wait.
    /// </summary>
    internal bool PortableReactor { get; set; }

    /// <summary>
    /// Whether a wait woken by the reactor continues on the reactor thread (the default) rather than on the thread pool; taken from
    /// <see cref="ReactorSelection"/> and only changed (by tests) before the first async wait.
    /// </summary>
    internal bool InlineCompletions { get; set; }

    internal IReadinessReactor Reactor
    {
        get
        {
            lock (_sync)
            {
                ObjectDisposedException.ThrowIf(_disposed, this);
                return _reactor ??= ReactorSelection.Create(PortableReactor, InlineCompletions);
            }
        }
    }

    internal void Forget(ZmqSocket socket)
    {
        lock (_sync)
        {
            _sockets.Remove(socket);
        }
    }

    private int Get(int option)
    {
        lock (_sync)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return LibZmq.CtxGet(Pointer, option);
        }
    }

    private static void Check(int rc, string operation)
    {
        if (rc != 0)
        {
            throw ZmqException.FromErrno(operation);
        }
    }
}
