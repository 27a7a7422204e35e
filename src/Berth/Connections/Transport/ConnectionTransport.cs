using System.Net;
using System.Net.Sockets;
using Berth.Unix;

namespace Berth.Connections.Transport;

/// <summary>
/// The byte stream under a connection, one base for every kind: the epoll transport (Linux), the runtime's socket
/// engine (<see cref="SocketTransport"/>, what Windows and macOS run) and TLS. It holds what they share: the socket,
/// the endpoints, the half-close, the abort, and the reading of how much the peer acknowledged. Nothing in it assumes
/// an IP address, so a Unix domain socket fits the same shape.
/// </summary>
internal abstract class ConnectionTransport : IDisposable
{
    /// <summary>
    /// What <see cref="ReceiveAsync"/> returns instead of waiting with a buffer when the readability wait before it
    /// ended on an event for bytes already taken: the caller gives its buffer back and waits again.
    /// </summary>
    public const int NothingReceived = -1;

    private readonly bool _activeOpen;
    private PeerAcknowledgement _acknowledgement = new();

    /// <param name="socket">The connected socket; the transport owns it from here on.</param>
    /// <param name="activeOpen">This side connected, rather than accepted (see <see cref="PeerAcknowledgement"/>).</param>
    /// <param name="connecting">
    /// A non-blocking connect is still under way: the endpoints are read once it finished, since asking the socket for
    /// them earlier would consume a failed connect's error.
    /// </param>
    protected ConnectionTransport(Socket socket, bool activeOpen, bool connecting = false)
    {
        Socket = socket;
        _activeOpen = activeOpen;
        if (!connecting)
        {
            ReadEndPoints();
        }
    }

    public EndPoint? LocalEndPoint { get; private set; }

    /// <summary>
    /// The peer's address: the socket's, unless the <see cref="IPreFramingStage"/> learned the original client's from
    /// the stream (a PROXY-protocol header) and set it here before the connection was created.
    /// </summary>
    public EndPoint? RemoteEndPoint { get; set; }

    /// <summary>
    /// Most buffers one <see cref="SendAsync"/> call is given; the send loop splits a longer batch. Each transport
    /// sets its own, from what its gather call can take without allocating.
    /// </summary>
    public abstract int MaxBuffersPerSend { get; }

    /// <summary>
    /// True when called on the one thread that completes this transport's sends: bytes that thread keeps unchanged
    /// while a send it started waits can then be sent without a copy. The epoll transport on its loop's thread; false
    /// everywhere else, and always for the runtime's socket engine and TLS, whose sends complete on other threads or
    /// write encrypted copies.
    /// </summary>
    public virtual bool CompletesSendsOnCurrentThread => false;

    /// <summary>
    /// After <see cref="Abort"/>: the bytes of the stream the peer had acknowledged when the transport was aborted,
    /// the rest having been discarded with a reset; <see cref="PeerAcknowledgement.Unknown"/> when not aborted or
    /// the platform cannot tell (not Linux, or TLS, whose records do not map byte for byte onto frames).
    /// </summary>
    public long AcknowledgedAtAbort => _acknowledgement.AtAbort;

    /// <summary>The bytes of the stream the peer has acknowledged so far; <see cref="PeerAcknowledgement.Unknown"/> as above.</summary>
    public long Acknowledged => CountsAcknowledgedBytes ? PeerAcknowledgement.Read(Socket, _activeOpen) : PeerAcknowledgement.Unknown;

    protected Socket Socket { get; }

    /// <summary>The peer process's credentials on a Unix domain socket (Linux); false otherwise.</summary>
    public bool TryGetPeerCredentials(out UnixPeerCredentials credentials) => UnixPeerCredentials.TryRead(Socket, out credentials);

    /// <summary>
    /// False when the bytes on the wire are not the bytes the send queue wrote (TLS), or when nothing acknowledges
    /// them (a Unix domain socket has no <c>tcp_info</c>: a frame written to it is in the peer's receive buffer).
    /// </summary>
    protected virtual bool CountsAcknowledgedBytes => Socket.ProtocolType == ProtocolType.Tcp;

    /// <summary>
    /// Receives into <paramref name="buffer"/>; 0 means the peer closed its side, <see cref="NothingReceived"/> that a
    /// receive right after a readability wait found the socket empty after all.
    /// </summary>
    /// <remarks>An empty buffer waits until the socket is readable and consumes nothing.</remarks>
    public abstract ValueTask<int> ReceiveAsync(Memory<byte> buffer);

    /// <summary>Writes every byte of <paramref name="buffers"/> (at most <see cref="MaxBuffersPerSend"/>), in order; returns the bytes written.</summary>
    public abstract ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers);

    /// <summary>Tells the peer no more data follows, after the last send completed.</summary>
    public void ShutdownSend() => Shutdown(SocketShutdown.Send);

    /// <summary>Closes the stream now; pending receives and sends fail. Only the connection's lifetime calls it.</summary>
    public void Abort()
    {
        if (CountsAcknowledgedBytes)
        {
            _acknowledgement.ReadOnce(Socket, _activeOpen);
        }

        AbortStream();
    }

    public abstract void Dispose();

    /// <summary>What <see cref="Abort"/> does once the acknowledged bytes are read: by default, closes the socket.</summary>
    protected virtual void AbortStream() => Socket.Dispose();

    /// <summary>Takes the endpoints from the socket: on construction, or once a connect that was under way finished.</summary>
    protected void ReadEndPoints()
    {
        LocalEndPoint = Socket.LocalEndPoint;
        RemoteEndPoint = Socket.RemoteEndPoint;
    }

    protected void Shutdown(SocketShutdown how)
    {
        try
        {
            Socket.Shutdown(how);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The peer is gone already, or the connection closed meanwhile; closing follows either way.
        }
    }
}
