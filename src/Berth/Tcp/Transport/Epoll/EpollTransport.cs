using System.Net;
using System.Net.Sockets;

namespace Berth.Tcp.Transport.Epoll;

/// <summary>
/// A plain TCP socket driven by an <see cref="EpollLoop"/> instead of the runtime's socket engine. The
/// <see cref="Socket"/> stays the owner of the descriptor; a reference taken on its handle keeps the descriptor
/// open until <see cref="Dispose"/> has removed it from epoll, so neither the loop nor a late call ever reaches a
/// closed or reused descriptor. An abort marks both directions failed and shuts the socket down instead of closing
/// it; the shutdown's event wakes the waiting receive and send on the loop, which fail them, and the descriptor is
/// closed only after both loops ended.
/// </summary>
internal sealed class EpollTransport : IConnectionTransport
{
    private readonly Socket _socket;
    private readonly EpollLoop _loop;
    private readonly EpollReceiver _receiver;
    private readonly EpollSender _sender;
    private readonly bool _activeOpen;
    private PeerAcknowledgement _acknowledgement = new();
    private int _disposed;

    /// <param name="socket">The connected socket.</param>
    /// <param name="loop">The loop that serves it.</param>
    /// <param name="activeOpen">This side connected (see <see cref="PeerAcknowledgement"/>).</param>
    public EpollTransport(Socket socket, EpollLoop loop, bool activeOpen = false)
    {
        _socket = socket;
        _activeOpen = activeOpen;
        _loop = loop;
        LocalEndPoint = socket.LocalEndPoint;
        RemoteEndPoint = socket.RemoteEndPoint;
        var added = false;
        socket.SafeHandle.DangerousAddRef(ref added);
        Descriptor = (int)socket.SafeHandle.DangerousGetHandle();
        _receiver = new EpollReceiver(Descriptor, loop);
        _sender = new EpollSender(Descriptor);
        try
        {
            loop.Add(this);
        }
        catch
        {
            socket.SafeHandle.DangerousRelease();
            throw;
        }
    }

    public EndPoint? LocalEndPoint { get; }

    public EndPoint? RemoteEndPoint { get; }

    internal int Descriptor { get; }

    /// <summary>The loop's name for this socket; see <see cref="EpollRegistrations"/>.</summary>
    internal ulong Token { get; set; }

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) => _receiver.ReceiveAsync(buffer);

    public ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(buffers);

    public void ShutdownSend() => Shutdown(SocketShutdown.Send);

    public long AcknowledgedAtAbort => _acknowledgement.AtAbort;

    public long Acknowledged => PeerAcknowledgement.Read(_socket, _activeOpen);

    public void Abort()
    {
        _acknowledgement.ReadOnce(_socket, _activeOpen);
        _receiver.Abort();
        _sender.Abort();
        Shutdown(SocketShutdown.Both);
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _loop.Remove(this);
        _socket.SafeHandle.DangerousRelease();
        _socket.Dispose();
    }

    /// <summary>On the loop: wakes the waiting receive and send this event concerns; errors and hang-ups concern both.</summary>
    internal void OnEvents(uint events)
    {
        if ((events & (LinuxSockets.EpollIn | LinuxSockets.EpollReadHangUp | LinuxSockets.EpollError | LinuxSockets.EpollHangUp)) != 0)
        {
            _receiver.OnReadable();
        }

        if ((events & (LinuxSockets.EpollOut | LinuxSockets.EpollError | LinuxSockets.EpollHangUp)) != 0)
        {
            _sender.OnWritable();
        }
    }

    private void Shutdown(SocketShutdown how)
    {
        try
        {
            _socket.Shutdown(how);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The peer is gone already, or the connection closed meanwhile; closing follows either way.
        }
    }
}
