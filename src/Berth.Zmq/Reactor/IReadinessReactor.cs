namespace Berth.Zmq;

/// <summary>
/// Wakes a socket's pending async operation when its <c>ZMQ_FD</c> signals. One per context, on a thread of its own;
/// it never touches a libzmq socket (they are single-threaded), only the notification descriptors.
/// </summary>
internal interface IReadinessReactor : IDisposable
{
    /// <summary>Registers <paramref name="fd"/> for <paramref name="readiness"/>; returns the id of the registration.</summary>
    ulong Add(nint fd, ZmqReadiness readiness);

    /// <summary>An operation is about to wait on the registration: the next signal of its descriptor must wake it.</summary>
    void Watch(ulong id);

    /// <summary>Ends the registration; must run before the socket (and so the descriptor) is closed.</summary>
    void Remove(nint fd, ulong id);

    /// <summary>True on the reactor's own thread, where inline completions run and <see cref="IDisposable.Dispose"/> must not be called.</summary>
    bool OnReactorThread { get; }
}
