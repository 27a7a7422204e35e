using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// A ZeroMQ socket. Like the libzmq socket under it, it is not thread-safe: one operation at a time, from any thread.
/// Every call claims the socket with one compare-and-swap, so a second thread calling while the first is inside
/// gets an <see cref="InvalidOperationException"/> instead of corrupting libzmq, and any call after
/// <see cref="Dispose"/> gets an <see cref="ObjectDisposedException"/> instead of touching freed native memory.
/// </summary>
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
    internal bool InCall => Volatile.Read(ref _state) == Busy;

    /// <summary>Closes the socket during context disposal, unless another thread is inside a call (it then gets ETERM and closes it).</summary>
    internal void CloseFromContext()
    {
        if (Interlocked.CompareExchange(ref _state, Closed, Idle) == Idle
            || Interlocked.CompareExchange(ref _state, Closed, AsyncWaiting) == AsyncWaiting)
        {
            Release();
        }
    }

    /// <summary>Claims the socket for one call.</summary>
    private void Enter()
    {
        var previous = Interlocked.CompareExchange(ref _state, Busy, Idle);
        if (previous != Idle)
        {
            ThrowNotIdle(previous);
        }
    }

    /// <summary>Gives the socket back; only the claiming thread can move it out of Busy, so a plain read suffices.</summary>
    private void Exit()
    {
        if (_state == Busy)
        {
            Volatile.Write(ref _state, Idle);
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
        Enter();
        return _socket;
    }

    internal void ExitAfterPoll() => Exit();
}
