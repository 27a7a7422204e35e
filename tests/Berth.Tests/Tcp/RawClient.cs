using System.Buffers.Binary;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using Berth.Connections;

namespace Berth.Tests.Tcp;

/// <summary>
/// A blocking socket speaking Berth frames, so tests see exactly the bytes of the stream: on the wire, or under TLS
/// when the server it talks to runs <see cref="TransportKind.Tls"/>.
/// </summary>
internal sealed class RawClient : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private readonly SslStream? _tls;

    /// <param name="endPoint">The server.</param>
    /// <param name="kind">What the server runs; only <see cref="TransportKind.Tls"/> changes this side.</param>
    /// <param name="preamble">Bytes sent in the clear right after connecting, before any TLS (a PROXY-protocol header).</param>
    /// <param name="from">The local address to connect from (on Linux any of 127.0.0.0/8 is loopback).</param>
    /// <param name="receiveBufferSize">
    /// The socket's receive buffer, set before connecting so the window is small from the start (shrinking it later
    /// stalls the peer): a client that stops reading then fills the server's socket soon.
    /// </param>
    public RawClient(EndPoint endPoint, TransportKind kind = TransportKind.Epoll, byte[]? preamble = null, IPAddress? from = null, int? receiveBufferSize = null)
    {
        Socket = endPoint.AddressFamily == AddressFamily.Unix
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Socket.ReceiveTimeout = (int)Patience.TotalMilliseconds;
        Socket.SendTimeout = (int)Patience.TotalMilliseconds;
        if (receiveBufferSize is { } size)
        {
            Socket.ReceiveBufferSize = size;
        }

        if (from is not null)
        {
            Socket.Bind(new IPEndPoint(from, 0));
        }

        Socket.Connect(endPoint);
        if (preamble is not null)
        {
            Socket.Send(preamble);
        }

        if (kind == TransportKind.Tls)
        {
            _tls = new SslStream(new NetworkStream(Socket, ownsSocket: false));
            _tls.AuthenticateAsClient(Transports.ClientTls());
        }
    }

    /// <summary>Connects to <paramref name="server"/> over <paramref name="kind"/>, over TCP or its Unix socket.</summary>
    public RawClient(BerthServer server, TransportKind kind)
        : this(Transports.AddressOf(server), kind)
    {
    }

    public Socket Socket { get; }

    public static byte[] Frame(ReadOnlySpan<byte> body)
    {
        var frame = new byte[4 + body.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, (uint)body.Length);
        body.CopyTo(frame.AsSpan(4));
        return frame;
    }

    public void SendFrame(ReadOnlySpan<byte> body) => Send(Frame(body));

    public void Send(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            if (_tls is not null)
            {
                _tls.Write(bytes);
                return;
            }

            bytes = bytes[Socket.Send(bytes)..];
        }
    }

    public byte[] ReceiveFrame()
    {
        Span<byte> header = stackalloc byte[4];
        ReceiveExactly(header);
        var body = new byte[BinaryPrimitives.ReadUInt32LittleEndian(header)];
        ReceiveExactly(body);
        return body;
    }

    public void ReceiveExactly(Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var received = Receive(destination);
            if (received == 0)
            {
                throw new EndOfStreamException("The server closed the connection.");
            }

            destination = destination[received..];
        }
    }

    /// <summary>True when the server closed or reset the connection (after any bytes still in flight are drained).</summary>
    public bool WaitForClose()
    {
        var sink = new byte[65536];
        try
        {
            while (Receive(sink) > 0)
            {
            }

            return true;
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
            return true;
        }
        catch (IOException e) when (e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset })
        {
            return true;
        }
    }

    public void Dispose()
    {
        _tls?.Dispose();
        Socket.Dispose();
    }

    private int Receive(Span<byte> destination) => _tls?.Read(destination) ?? Socket.Receive(destination);
}
