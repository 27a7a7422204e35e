using System.Runtime.CompilerServices;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// A ZeroMQ socket. Like the libzmq socket under it, it is not thread-safe: one operation at a time, from any thread.
/// Every call claims the socket (with plain reads and writes while one thread keeps using it, see
/// <c>ZmqSocket.Ownership.cs</c>), so a second thread calling while the first is inside gets an
/// <see cref="InvalidOperationException"/> instead of corrupting libzmq, and any call after
/// <see cref="Dispose"/> gets an <see cref="ObjectDisposedException"/> instead of touching freed native memory.
/// </summary>
/// <remarks>
/// An async operation that had to wait continues on its context's reactor thread, as a blocking call would on the
/// caller's, so awaiting costs no thread-pool hop. The continuations of one context's sockets therefore run one at a
/// time: CPU-heavy work after an await belongs on the thread pool or in another context. Code after the await that
/// blocks (a lock, a blocking call, a long computation) holds that thread: after 10 to 20 ms the reactor moves to a
/// new thread, so each socket whose continuation blocks stalls the context's other sockets at most that long, once,
/// and is woken through the thread pool from then on. The <c>Berth.Zmq.InlineCompletions</c> AppContext switch set
/// to false (or <c>BERTH_ZMQ_INLINE_COMPLETIONS=0</c>) sends every continuation to the thread pool instead.
/// </remarks>
public sealed unsafe partial class ZmqSocket : IDisposable
{
    private const int Idle = 0;
    private const int Busy = 1;
    private const int AsyncWaiting = 2;
    private const int Closed = 3;

    private readonly ZmqContext _context;
    private readonly ZmqSocketHandle _handle;
    private readonly nint _socket;
    private int _state;

    internal ZmqSocket(ZmqContext context, ZmqSocketHandle handle, ZmqSocketType type)
    {
        _context = context;
        _handle = handle;
        _socket = handle.DangerousGetHandle();
        Type = type;
        _zeroCopyThreshold = ZmqSendStrategy.DefaultZeroCopyThreshold;
    }

    /// <summary>The socket type.</summary>
    public ZmqSocketType Type { get; }

    /// <summary>The context that created this socket.</summary>
    public ZmqContext Context => _context;

    /// <summary>Binds to an endpoint (<c>tcp://127.0.0.1:*</c> picks a free port; read it back from <see cref="LastEndpoint"/>).</summary>
    /// <param name="endpoint">A libzmq endpoint such as <c>tcp://127.0.0.1:5555</c> or <c>inproc://name</c>.</param>
    public void Bind(string endpoint) => EndpointCall(endpoint, &LibZmq.Bind, "zmq_bind");

    /// <summary>Connects to an endpoint; the connection is made (and remade) in the background.</summary>
    /// <param name="endpoint">A libzmq endpoint.</param>
    public void Connect(string endpoint) => EndpointCall(endpoint, &LibZmq.Connect, "zmq_connect");

    /// <summary>Stops listening on an endpoint previously bound.</summary>
    /// <param name="endpoint">The endpoint as bound, or the resolved one from <see cref="LastEndpoint"/>.</param>
    public void Unbind(string endpoint) => EndpointCall(endpoint, &LibZmq.Unbind, "zmq_unbind");

    /// <summary>Disconnects from an endpoint previously connected.</summary>
    /// <param name="endpoint">The endpoint as connected.</param>
    public void Disconnect(string endpoint) => EndpointCall(endpoint, &LibZmq.Disconnect, "zmq_disconnect");

    /// <summary>
    /// Closes the socket (pending outgoing messages are kept for <see cref="Linger"/>). Safe to call twice.
    /// A pending async operation completes with <see cref="ObjectDisposedException"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">Another thread is inside a call on this socket.</exception>
    public void Dispose()
    {
        var previous = Interlocked.CompareExchange(ref _state, Closed, Idle);
        if (previous == AsyncWaiting)
        {
            previous = Interlocked.CompareExchange(ref _state, Closed, AsyncWaiting);
        }

        if (previous == Idle && OwnerIsInside())
        {
            Volatile.Write(ref _state, Idle);
            previous = Busy;
        }

        switch (previous)
        {
            case Idle:
            case AsyncWaiting:
                Release();
                return;
            case Closed:
                return;
            default:
                throw new InvalidOperationException(
                    "ZmqSocket is being used by another thread; a socket must be disposed by the thread that uses it (or after its call returns)");
        }
    }

    /// <summary>True while a thread is inside a blocking call on this socket (tests observe a receive that is blocked).</summary>
    internal bool InCall => Volatile.Read(ref _state) == Busy || (Volatile.Read(ref _ownerSlot) is { } owner && Volatile.Read(ref owner[0]) == _number);

    /// <summary>Closes the socket during context disposal, unless another thread is inside a call (it then gets ETERM and closes it).</summary>
    internal void CloseFromContext()
    {
        if (Interlocked.CompareExchange(ref _state, Closed, Idle) == Idle)
        {
            if (OwnerIsInside())
            {
                Volatile.Write(ref _state, Idle);
                return;
            }

            Release();
        }
        else if (Interlocked.CompareExchange(ref _state, Closed, AsyncWaiting) == AsyncWaiting)
        {
            Release();
        }
    }

    private void ThrowNotIdle(int state)
    {
        ObjectDisposedException.ThrowIf(state == Closed, this);
        throw new InvalidOperationException(
            "ZmqSocket used from two threads at once: libzmq sockets are single-threaded; give each socket one owner and pass messages to it (see docs/ZMQ.md)");
    }

    /// <summary>Called while holding the socket after a failed call: returns the errno, closing the socket on ETERM.</summary>
    private int LastError()
    {
        var error = LibZmq.Errno();
        if (error == ZmqErrors.Terminated)
        {
            Volatile.Write(ref _state, Closed);
            Release();
        }

        return error;
    }

    /// <summary>
    /// The exception for a send that timed out. Built outside the callers so that the hot send and receive methods
    /// carry no string-formatting locals: their frames, zeroed on every call, stay small.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private TimeoutException SendTimedOut() => new($"send on {Type} socket timed out (SendTimeout)");

    /// <summary>The exception for a receive that timed out (built outside the callers, as <see cref="SendTimedOut"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private TimeoutException ReceiveTimedOut() => new($"receive on {Type} socket timed out (ReceiveTimeout)");

    private ZmqException Failure(int error, string operation)
    {
        if (error == ZmqErrors.Terminated)
        {
            return new ZmqException(error, $"{operation}: the context was shut down; the socket is closed");
        }

        return new ZmqException(error, $"{operation} on {Type} socket: {ZmqException.Describe(error)}");
    }

    private void Release()
    {
        _readiness?.Detach();
        _handle.Dispose();
        FreeScratchMessage();
        _context.Forget(this);
    }

    private void EndpointCall(string endpoint, delegate*<nint, string, int> call, string operation)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        Enter();
        try
        {
            if (call(_socket, endpoint) != 0)
            {
                var error = LastError();
                throw new ZmqException(error, $"{operation}({endpoint}) on {Type} socket: {ZmqException.Describe(error)}");
            }
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Claims the socket for a poll or proxy that passes the raw pointer to libzmq.</summary>
    internal nint EnterForPoll()
    {
        // A poll claims several sockets from one thread at once, so it holds each by its state, not by the thread's slot.
        ClaimByState(own: false);
        return _socket;
    }

    internal void ExitAfterPoll()
    {
        if (_state == Busy)
        {
            Volatile.Write(ref _state, Idle);
        }
    }
}
