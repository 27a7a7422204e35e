namespace Berth.Zmq;

/// <summary>Readiness flags of a socket (libzmq's <c>ZMQ_POLLIN</c>, <c>ZMQ_POLLOUT</c>, <c>ZMQ_POLLERR</c>).</summary>
[Flags]
public enum ZmqPollEvents : short
{
    /// <summary>Nothing ready.</summary>
    None = 0,

    /// <summary>At least one message can be received without blocking.</summary>
    In = 1,

    /// <summary>At least one message can be sent without blocking.</summary>
    Out = 2,

    /// <summary>An error condition (only for raw file descriptors).</summary>
    Error = 4,
}
