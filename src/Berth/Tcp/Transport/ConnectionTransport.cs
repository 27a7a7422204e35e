using System.Net;
using System.Net.Sockets;

namespace Berth.Tcp.Transport;

/// <summary>What every transport over a socket shares: its endpoints, a quiet half-close, and an abort.</summary>
internal abstract class ConnectionTransport(Socket socket) : IConnectionTransport
{
    public EndPoint? LocalEndPoint { get; } = socket.LocalEndPoint;

    public EndPoint? RemoteEndPoint { get; } = socket.RemoteEndPoint;

    protected Socket Socket => socket;

    public abstract ValueTask<int> ReceiveAsync(Memory<byte> buffer);

    public abstract ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers);

    public void ShutdownSend()
    {
        try
        {
            socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The peer is gone already; closing follows either way.
        }
    }

    public virtual long AcknowledgedAtAbort => PeerAcknowledgement.Unknown;

    public virtual long Acknowledged => PeerAcknowledgement.Unknown;

    public virtual void Abort() => socket.Dispose();

    public abstract void Dispose();
}
