namespace Berth.Zmq;

/// <summary>Socket lifecycle events reported by <see cref="ZmqMonitor"/> (libzmq's <c>ZMQ_EVENT_*</c>).</summary>
[Flags]
public enum ZmqMonitorEvents
{
    /// <summary>No event.</summary>
    None = 0,

    /// <summary>A connection was established.</summary>
    Connected = 0x0001,

    /// <summary>A synchronous connect could not complete at once and goes on in the background.</summary>
    ConnectDelayed = 0x0002,

    /// <summary>A reconnect is being attempted; the value is the interval in milliseconds.</summary>
    ConnectRetried = 0x0004,

    /// <summary>The socket is bound and listening.</summary>
    Listening = 0x0008,

    /// <summary>Binding failed.</summary>
    BindFailed = 0x0010,

    /// <summary>A connection was accepted.</summary>
    Accepted = 0x0020,

    /// <summary>Accepting a connection failed.</summary>
    AcceptFailed = 0x0040,

    /// <summary>A connection was closed.</summary>
    Closed = 0x0080,

    /// <summary>Closing a connection failed.</summary>
    CloseFailed = 0x0100,

    /// <summary>A session was broken.</summary>
    Disconnected = 0x0200,

    /// <summary>Monitoring stopped.</summary>
    MonitorStopped = 0x0400,

    /// <summary>The handshake failed for an unspecified reason.</summary>
    HandshakeFailedNoDetail = 0x0800,

    /// <summary>The ZMTP handshake (and security) completed.</summary>
    HandshakeSucceeded = 0x1000,

    /// <summary>The handshake failed on a protocol error; the value is the error code.</summary>
    HandshakeFailedProtocol = 0x2000,

    /// <summary>The handshake failed on authentication.</summary>
    HandshakeFailedAuth = 0x4000,

    /// <summary>Every event.</summary>
    All = 0xFFFF,
}
