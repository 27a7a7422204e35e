using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed partial class ZmqSocket
{
    /// <summary>The most outgoing messages queued per peer before sends block or drop (<c>ZMQ_SNDHWM</c>; 0 = unlimited).</summary>
    public int SendHighWatermark { get => GetInt32Option(ZmqOption.SendHighWatermark); set => SetOption(ZmqOption.SendHighWatermark, value); }

    /// <summary>The most incoming messages queued per peer (<c>ZMQ_RCVHWM</c>; 0 = unlimited).</summary>
    public int ReceiveHighWatermark { get => GetInt32Option(ZmqOption.ReceiveHighWatermark); set => SetOption(ZmqOption.ReceiveHighWatermark, value); }

    /// <summary>How long unsent messages are kept after <see cref="Dispose"/> (<c>ZMQ_LINGER</c>; infinite by default in libzmq).</summary>
    public TimeSpan Linger { get => GetDuration(ZmqOption.Linger); set => SetDuration(ZmqOption.Linger, value); }

    /// <summary>The longest a blocking send waits before <see cref="TimeoutException"/> (<c>ZMQ_SNDTIMEO</c>; infinite by default).</summary>
    public TimeSpan SendTimeout { get => GetDuration(ZmqOption.SendTimeout); set => SetDuration(ZmqOption.SendTimeout, value); }

    /// <summary>The longest a blocking receive waits before <see cref="TimeoutException"/> (<c>ZMQ_RCVTIMEO</c>; infinite by default).</summary>
    public TimeSpan ReceiveTimeout { get => GetDuration(ZmqOption.ReceiveTimeout); set => SetDuration(ZmqOption.ReceiveTimeout, value); }

    /// <summary>This socket's identity as seen by ROUTER peers (<c>ZMQ_ROUTING_ID</c>, 1 to 255 bytes; set before connecting).</summary>
    public byte[] RoutingId { get => GetBytesOption(ZmqOption.RoutingId); set => SetOption(ZmqOption.RoutingId, (ReadOnlySpan<byte>)value); }

    /// <summary>Delay before reconnecting a lost connection (<c>ZMQ_RECONNECT_IVL</c>).</summary>
    public TimeSpan ReconnectInterval { get => GetDuration(ZmqOption.ReconnectInterval); set => SetDuration(ZmqOption.ReconnectInterval, value); }

    /// <summary>Upper bound of the exponential reconnect back-off (<c>ZMQ_RECONNECT_IVL_MAX</c>; zero = no back-off).</summary>
    public TimeSpan ReconnectIntervalMax { get => GetDuration(ZmqOption.ReconnectIntervalMax); set => SetDuration(ZmqOption.ReconnectIntervalMax, value); }

    /// <summary>How often ZMTP heartbeats are sent (<c>ZMQ_HEARTBEAT_IVL</c>; zero = off).</summary>
    public TimeSpan HeartbeatInterval { get => GetDuration(ZmqOption.HeartbeatInterval); set => SetDuration(ZmqOption.HeartbeatInterval, value); }

    /// <summary>How long to wait for a heartbeat reply before closing the connection (<c>ZMQ_HEARTBEAT_TIMEOUT</c>).</summary>
    public TimeSpan HeartbeatTimeout { get => GetDuration(ZmqOption.HeartbeatTimeout); set => SetDuration(ZmqOption.HeartbeatTimeout, value); }

    /// <summary>The time-to-live announced to the peer in heartbeats (<c>ZMQ_HEARTBEAT_TTL</c>, in 100 ms steps).</summary>
    public TimeSpan HeartbeatTimeToLive { get => GetDuration(ZmqOption.HeartbeatTimeToLive); set => SetDuration(ZmqOption.HeartbeatTimeToLive, value); }

    /// <summary>The longest a ZMTP handshake may take (<c>ZMQ_HANDSHAKE_IVL</c>).</summary>
    public TimeSpan HandshakeInterval { get => GetDuration(ZmqOption.HandshakeInterval); set => SetDuration(ZmqOption.HandshakeInterval, value); }

    /// <summary>The longest a TCP connect may take (<c>ZMQ_CONNECT_TIMEOUT</c>; zero = the OS default).</summary>
    public TimeSpan ConnectTimeout { get => GetDuration(ZmqOption.ConnectTimeout); set => SetDuration(ZmqOption.ConnectTimeout, value); }

    /// <summary>SO_KEEPALIVE on TCP connections (<c>ZMQ_TCP_KEEPALIVE</c>: -1 = OS default, 0 = off, 1 = on).</summary>
    public int TcpKeepalive { get => GetInt32Option(ZmqOption.TcpKeepalive); set => SetOption(ZmqOption.TcpKeepalive, value); }

    /// <summary>Keepalive probes before the connection is dropped (<c>ZMQ_TCP_KEEPALIVE_CNT</c>; -1 = OS default).</summary>
    public int TcpKeepaliveCount { get => GetInt32Option(ZmqOption.TcpKeepaliveCount); set => SetOption(ZmqOption.TcpKeepaliveCount, value); }

    /// <summary>Idle seconds before the first keepalive probe (<c>ZMQ_TCP_KEEPALIVE_IDLE</c>; -1 = OS default).</summary>
    public int TcpKeepaliveIdle { get => GetInt32Option(ZmqOption.TcpKeepaliveIdle); set => SetOption(ZmqOption.TcpKeepaliveIdle, value); }

    /// <summary>Seconds between keepalive probes (<c>ZMQ_TCP_KEEPALIVE_INTVL</c>; -1 = OS default).</summary>
    public int TcpKeepaliveInterval { get => GetInt32Option(ZmqOption.TcpKeepaliveInterval); set => SetOption(ZmqOption.TcpKeepaliveInterval, value); }

    /// <summary>Queue messages only to completed connections (<c>ZMQ_IMMEDIATE</c>).</summary>
    public bool Immediate { get => GetInt32Option(ZmqOption.Immediate) != 0; set => SetOption(ZmqOption.Immediate, value ? 1 : 0); }

    /// <summary>Accept IPv6 as well as IPv4 (<c>ZMQ_IPV6</c>).</summary>
    public bool Ipv6 { get => GetInt32Option(ZmqOption.Ipv6) != 0; set => SetOption(ZmqOption.Ipv6, value ? 1 : 0); }

    /// <summary>Length of the pending-connection queue of a bound TCP socket (<c>ZMQ_BACKLOG</c>).</summary>
    public int Backlog { get => GetInt32Option(ZmqOption.Backlog); set => SetOption(ZmqOption.Backlog, value); }

    /// <summary>Largest inbound message accepted; larger ones drop the connection (<c>ZMQ_MAXMSGSIZE</c>; -1 = unlimited).</summary>
    public long MaxMessageSize { get => GetInt64Option(ZmqOption.MaxMessageSize); set => SetOption(ZmqOption.MaxMessageSize, value); }

    /// <summary>Kernel send buffer size in bytes (<c>ZMQ_SNDBUF</c>; -1 = OS default).</summary>
    public int SendBufferSize { get => GetInt32Option(ZmqOption.SendBuffer); set => SetOption(ZmqOption.SendBuffer, value); }

    /// <summary>Kernel receive buffer size in bytes (<c>ZMQ_RCVBUF</c>; -1 = OS default).</summary>
    public int ReceiveBufferSize { get => GetInt32Option(ZmqOption.ReceiveBuffer); set => SetOption(ZmqOption.ReceiveBuffer, value); }

    /// <summary>Keep only the last message in each queue (<c>ZMQ_CONFLATE</c>).</summary>
    public bool Conflate { get => GetInt32Option(ZmqOption.Conflate) != 0; set => SetOption(ZmqOption.Conflate, value ? 1 : 0); }

    /// <summary>Fail sends to unknown routing ids instead of dropping them (<c>ZMQ_ROUTER_MANDATORY</c>, ROUTER only).</summary>
    public bool RouterMandatory { get => GetInt32Option(ZmqOption.RouterMandatory) != 0; set => SetOption(ZmqOption.RouterMandatory, value ? 1 : 0); }

    /// <summary>Let a REQ socket send again without waiting for the reply (<c>ZMQ_REQ_RELAXED</c>).</summary>
    public bool RequestRelaxed { get => GetInt32Option(ZmqOption.RequestRelaxed) != 0; set => SetOption(ZmqOption.RequestRelaxed, value ? 1 : 0); }

    /// <summary>Match replies to requests by a request id (<c>ZMQ_REQ_CORRELATE</c>).</summary>
    public bool RequestCorrelate { get => GetInt32Option(ZmqOption.RequestCorrelate) != 0; set => SetOption(ZmqOption.RequestCorrelate, value ? 1 : 0); }

    /// <summary>Pass every subscription, including duplicates, up an XPUB socket (<c>ZMQ_XPUB_VERBOSE</c>).</summary>
    public bool XPubVerbose { get => GetInt32Option(ZmqOption.XPubVerbose) != 0; set => SetOption(ZmqOption.XPubVerbose, value ? 1 : 0); }

    /// <summary>Act as a CURVE server (<c>ZMQ_CURVE_SERVER</c>); needs <see cref="CurveSecretKey"/>.</summary>
    public bool CurveServer { get => GetInt32Option(ZmqOption.CurveServer) != 0; set => SetOption(ZmqOption.CurveServer, value ? 1 : 0); }

    /// <summary>This socket's long-term CURVE public key, 40 Z85 characters (<c>ZMQ_CURVE_PUBLICKEY</c>).</summary>
    public string CurvePublicKey { get => GetZ85KeyOption(ZmqOption.CurvePublicKey); set => SetOption(ZmqOption.CurvePublicKey, value); }

    /// <summary>This socket's long-term CURVE secret key, 40 Z85 characters (<c>ZMQ_CURVE_SECRETKEY</c>).</summary>
    public string CurveSecretKey { get => GetZ85KeyOption(ZmqOption.CurveSecretKey); set => SetOption(ZmqOption.CurveSecretKey, value); }

    /// <summary>The server's public key a CURVE client expects, 40 Z85 characters (<c>ZMQ_CURVE_SERVERKEY</c>).</summary>
    public string CurveServerKey { get => GetZ85KeyOption(ZmqOption.CurveServerKey); set => SetOption(ZmqOption.CurveServerKey, value); }

    /// <summary>The security mechanism in use (<c>ZMQ_MECHANISM</c>: 0 null, 1 plain, 2 curve).</summary>
    public int Mechanism => GetInt32Option(ZmqOption.Mechanism);

    /// <summary>The endpoint last bound or connected, with wildcards resolved (<c>ZMQ_LAST_ENDPOINT</c>).</summary>
    public string LastEndpoint => GetStringOption(ZmqOption.LastEndpoint);

    /// <summary>True when the last received frame is followed by more frames of the same message (<c>ZMQ_RCVMORE</c>).</summary>
    public bool ReceiveMore => GetInt32Option(ZmqOption.ReceiveMore) != 0;

    /// <summary>What the socket can do now without blocking (<c>ZMQ_EVENTS</c>).</summary>
    public ZmqPollEvents Events => (ZmqPollEvents)GetInt32Option(ZmqOption.Events);

    /// <summary>Subscribes a SUB or XSUB socket to messages whose first frame starts with <paramref name="prefix"/> (empty = everything).</summary>
    /// <param name="prefix">The topic prefix.</param>
    public void Subscribe(ReadOnlySpan<byte> prefix) => SetOption(ZmqOption.Subscribe, prefix);

    /// <summary>Subscribes to a UTF-8 topic prefix.</summary>
    /// <param name="prefix">The topic prefix.</param>
    public void Subscribe(string prefix) => SetOption(ZmqOption.Subscribe, Encoding.UTF8.GetBytes(prefix));

    /// <summary>Removes one subscription made with the same prefix.</summary>
    /// <param name="prefix">The topic prefix.</param>
    public void Unsubscribe(ReadOnlySpan<byte> prefix) => SetOption(ZmqOption.Unsubscribe, prefix);

    /// <summary>Removes one subscription made with the same UTF-8 prefix.</summary>
    /// <param name="prefix">The topic prefix.</param>
    public void Unsubscribe(string prefix) => SetOption(ZmqOption.Unsubscribe, Encoding.UTF8.GetBytes(prefix));

    /// <summary>Names the peer of the next <see cref="Connect"/> on a ROUTER or STREAM socket (<c>ZMQ_CONNECT_ROUTING_ID</c>).</summary>
    /// <param name="routingId">The routing id to give the next connection.</param>
    public void SetConnectRoutingId(ReadOnlySpan<byte> routingId) => SetOption(ZmqOption.ConnectRoutingId, routingId);

    /// <summary>The file descriptor libzmq signals (edge-triggered) when <see cref="Events"/> may have changed.</summary>
    internal int NotificationFd => GetInt32Option(ZmqOption.Fd);

    private TimeSpan GetDuration(ZmqOption option)
    {
        var milliseconds = GetInt32Option(option);
        return milliseconds < 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(milliseconds);
    }

    private void SetDuration(ZmqOption option, TimeSpan value)
    {
        if (value != Timeout.InfiniteTimeSpan && (value < TimeSpan.Zero || value.TotalMilliseconds > int.MaxValue))
        {
            throw new ArgumentOutOfRangeException(nameof(value), value, "a duration must be zero or positive, or Timeout.InfiniteTimeSpan");
        }

        SetOption(option, value == Timeout.InfiniteTimeSpan ? -1 : (int)value.TotalMilliseconds);
    }
}
