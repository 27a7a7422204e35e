using System.Net;

namespace Berth.Tcp.Transport;

/// <summary>The byte stream under a connection: a plain socket, or TLS over one.</summary>
internal interface IConnectionTransport : IDisposable
{
    EndPoint? LocalEndPoint { get; }

    EndPoint? RemoteEndPoint { get; }

    /// <summary>Receives into <paramref name="buffer"/>; 0 means the peer closed its side.</summary>
    ValueTask<int> ReceiveAsync(Memory<byte> buffer);

    /// <summary>Writes every byte of <paramref name="buffers"/>, in order; returns the bytes written.</summary>
    ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers);

    /// <summary>Tells the peer no more data follows, after the last send completed.</summary>
    void ShutdownSend();

    /// <summary>Closes the socket now; pending receives and sends fail.</summary>
    void Abort();

    /// <summary>
    /// After <see cref="Abort"/>: the bytes of the stream the peer had acknowledged when the transport was aborted,
    /// the rest having been discarded with a reset; <see cref="PeerAcknowledgement.Unknown"/> when not aborted or
    /// the platform cannot tell (not Linux, or TLS, whose records do not map byte for byte onto frames).
    /// </summary>
    long AcknowledgedAtAbort { get; }

    /// <summary>The bytes of the stream the peer has acknowledged so far; <see cref="PeerAcknowledgement.Unknown"/> as above.</summary>
    long Acknowledged { get; }
}
