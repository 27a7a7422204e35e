using System.Net.Sockets;
using Berth.Interop;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// A plain TCP socket driven by an <see cref="EpollLoop"/> instead of the runtime's socket engine. The
/// <see cref="Socket"/> stays the owner of the descriptor; a reference taken on its handle keeps the descriptor
/// open until <see cref="Dispose"/> has removed it from epoll, so neither the loop nor a late call ever reaches a
/// closed or reused descriptor. An abort marks both directions failed and shuts the socket down instead of closing
/// it; the shutdown's event wakes the waiting receive and send on the loop, which fail them, and the descriptor is
/// closed only after both loops ended.
/// </summary>
internal sealed class EpollTransport : ConnectionTransport
{
    private readonly EpollLoop _loop;
    private readonly EpollReceiver _receiver;
    private readonly EpollSender _sender;
    private int _disposed;

    /// <param name="socket">The connected socket.</param>
    /// <param name="loop">The loop that serves it.</param>
    /// <param name="activeOpen">This side connected (see <see cref="PeerAcknowledgement"/>).</param>
    /// <param name="connecting">A non-blocking connect is under way; <see cref="ConnectedAsync"/> waits for it.</param>
    public EpollTransport(Socket socket, EpollLoop loop, bool activeOpen = false, bool connecting = false)
        : base(socket, activeOpen, connecting)
    {
        _loop = loop;
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

    public override int MaxBuffersPerSend => EpollSender.MaxVectors;

    /// <summary>A waiting send is finished only by the loop (<see cref="EpollSender.OnWritable"/>), on its thread.</summary>
    public override bool CompletesSendsOnCurrentThread => _loop.IsCurrentThread;

    internal int Descriptor { get; }

    /// <summary>The loop that serves this socket, on whose thread its handler runs.</summary>
    internal EpollLoop Loop => _loop;

    /// <summary>The loop's name for this socket; see <see cref="EpollRegistrations"/>.</summary>
    internal ulong Token { get; set; }

    /// <summary>
    /// Waits for the connect under way on the socket to finish on the loop, then takes the endpoints it set; on
    /// <paramref name="cancellationToken"/>, ends the wait and throws <see cref="OperationCanceledException"/>.
    /// </summary>
    internal async Task ConnectedAsync(CancellationToken cancellationToken)
    {
        var registration = cancellationToken.UnsafeRegister(static sender => ((EpollSender)sender!).AbortConnect(), _sender);
        try
        {
            await _sender.ConnectedAsync(Socket).ConfigureAwait(false);
        }
        catch (SocketException) when (cancellationToken.IsCancellationRequested)
        {
            // Aborted by the token: reported as the cancellation below.
        }
        finally
        {
            // Waits for a callback under way, so nothing aborts the sender after the check below.
            await registration.DisposeAsync().ConfigureAwait(false);
        }

        // A connect that finished as the token fired counts as cancelled too: the callback may have aborted the sender.
        cancellationToken.ThrowIfCancellationRequested();
        ReadEndPoints();
    }

    public override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => _receiver.ReceiveAsync(buffer);

    public override ValueTask<int> SendAsync(IList<ArraySegment<byte>> buffers) => _sender.SendAsync(buffers);

    public override void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _loop.Remove(this);
        Socket.SafeHandle.DangerousRelease();
        Socket.Dispose();
    }

    /// <summary>On the loop: wakes the waiting receive and send this event concerns; errors and hang-ups concern both.</summary>
    internal void OnEvents(uint events)
    {
        const uint ended = LinuxEpoll.ReadHangUp | LinuxEpoll.Error | LinuxEpoll.HangUp;
        if ((events & (LinuxEpoll.In | ended)) != 0)
        {
            _receiver.OnReadable((events & ended) != 0);
        }

        if ((events & (LinuxEpoll.Out | LinuxEpoll.Error | LinuxEpoll.HangUp)) != 0)
        {
            _sender.OnWritable();
        }
    }

    /// <summary>Marks both directions failed and shuts the socket down; the descriptor stays open until <see cref="Dispose"/>.</summary>
    protected override void AbortStream()
    {
        _receiver.Abort();
        _sender.Abort();
        Shutdown(SocketShutdown.Both);
    }
}
