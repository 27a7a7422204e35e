namespace Berth.Connections;

/// <summary>Why a connection ended. The first reason recorded wins; later ones are ignored.</summary>
public enum DisconnectReason
{
    /// <summary>The peer closed its side of the connection.</summary>
    ClosedByPeer,

    /// <summary>The application closed the connection.</summary>
    ClosedByApplication,

    /// <summary>The peer announced a frame body longer than the configured maximum.</summary>
    FrameTooLarge,

    /// <summary>The peer sent a length field that cannot be valid.</summary>
    MalformedFrame,

    /// <summary>The frame handler threw; only this connection was closed.</summary>
    HandlerFailed,

    /// <summary>
    /// The peer stopped reading: the receive loop stayed paused for a full send queue longer than
    /// <see cref="ConnectionOptions.SlowConsumerTimeout"/>, or a send found the queue full under
    /// <see cref="FullQueuePolicy.CloseAsSlowConsumer"/>.
    /// </summary>
    SlowConsumer,

    /// <summary>Nothing was received for longer than the idle timeout.</summary>
    IdleTimeout,

    /// <summary>The server already had its maximum number of connections.</summary>
    ConnectionLimit,

    /// <summary>The server or client was stopped.</summary>
    ServerStopping,

    /// <summary>A socket operation failed (reset, aborted, unreachable).</summary>
    SocketError,

    /// <summary>The TLS handshake failed or timed out.</summary>
    TlsFailed,

    /// <summary>A packet carried a message id with no registered handler.</summary>
    UnknownMessage,

    /// <summary>A frame took longer than <see cref="ConnectionOptions.FrameTimeout"/> to arrive once it had begun.</summary>
    FrameTimeout,

    /// <summary>A trusted proxy's connection under <c>ProxyHeaderPolicy.Required</c> began without a PROXY-protocol header.</summary>
    ProxyHeaderMissing,

    /// <summary>The PROXY-protocol header broke the specification, or a stream began like one and diverged.</summary>
    ProxyHeaderMalformed,

    /// <summary>The PROXY-protocol header was, or announced, more bytes than its bound.</summary>
    ProxyHeaderTooLarge,

    /// <summary>The PROXY-protocol header (or, from an untrusted address, the first bytes) did not arrive within its deadline.</summary>
    ProxyHeaderTimeout,

    /// <summary>A PROXY-protocol header came from an address not among the trusted proxies.</summary>
    ProxyHeaderUntrusted,

    /// <summary>A well-formed PROXY-protocol header this server cannot use (another version or command, a datagram family).</summary>
    ProxyHeaderUnsupported,

    /// <summary>The application's <c>ProxyProtocolOptions.OnHeader</c> refused the header.</summary>
    ProxyHeaderRejected,

    /// <summary>
    /// A typed handler's message body broke its contract (truncated, malformed or over a bound); the
    /// <see cref="Messages.MessageFormatException"/> naming the field, offset and fault is the <see cref="DisconnectInfo.Error"/>.
    /// </summary>
    MalformedMessage,
}
