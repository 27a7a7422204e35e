using System.Net.Sockets;
using System.Runtime.InteropServices;
using Berth.Threading;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// The receive side of an <see cref="EpollTransport"/>: tries <c>recv</c> at once and, when nothing is there, leaves
/// the receive with the event loop, which finishes it on its own thread and runs the awaiting receive loop inline.
/// An empty buffer waits for readability only, so an idle connection needs no receive buffer. Once a receive left the
/// socket empty (it got fewer bytes than it asked for, or none), every later arrival raises an edge, so that wait
/// makes no syscall: it ends on the next edge. A short receive proves nothing once the peer closed or the socket
/// failed (the end of the stream stays readable and raises no further edge), so from then on the wait asks the
/// socket. A receive that follows a wait ended by an edge alone and finds nothing after all (the edge was for bytes
/// already taken) completes with <see cref="ConnectionTransport.NothingReceived"/> instead of waiting, so the caller
/// can give its buffer back before it waits again.
/// </summary>
internal sealed unsafe class EpollReceiver(int fd, EpollLoop loop) : ReusableAwaitable<int>
{
    /// <summary>Receives in a row that may complete at once on the loop's thread before the others get a turn.</summary>
    private const int TurnLength = 16;

    private ReadinessHandoff _handoff;
    private Memory<byte> _buffer;
    private volatile bool _aborted;
    private int _inARow;

    // The socket was empty after the receive that began at edge count _emptiedAt: only a later edge brings more.
    private bool _emptied;
    private int _emptiedAt;

    // Set before the edge that reported the peer's close or an error is counted, so a receive that observed that edge sees it.
    private volatile bool _ended;

    // The last readability wait ended on an edge alone, without a syscall confirming there is something to read.
    private bool _unconfirmed;

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        _buffer = buffer;
        Reset();
        if (loop.IsCurrentThread && ++_inARow > TurnLength)
        {
            loop.Defer(this);
            return Pending;
        }

        if (!TryReceive(out var received, out var error))
        {
            return Pending;
        }

        _buffer = default;
        return error is null ? new ValueTask<int>(received) : ValueTask.FromException<int>(error);
    }

    /// <summary>
    /// Fails this receive, if one waits, and every later one. A shut-down socket still takes data a peer keeps sending,
    /// so without this a peer could keep an aborted connection's receive loop busy.
    /// </summary>
    public void Abort() => _aborted = true;

    /// <summary>On the loop, for an event that may make the socket readable; <paramref name="ended"/> when it reports the peer's close or an error.</summary>
    public void OnReadable(bool ended)
    {
        if (ended)
        {
            _ended = true;
        }

        if (_handoff.Signal())
        {
            Resume();
        }
    }

    /// <summary>On the loop: retries the receive left with it, and completes it unless it has to wait again.</summary>
    public void Resume()
    {
        _inARow = 0;
        if (!TryReceive(out var received, out var error))
        {
            return;
        }

        _buffer = default;
        if (error is null)
        {
            SetResult(received);
        }
        else
        {
            SetException(error);
        }
    }

    /// <summary>False when the receive now waits for the loop.</summary>
    private bool TryReceive(out int received, out Exception? error)
    {
        error = null;
        received = 0;
        while (true)
        {
            if (_aborted)
            {
                error = new SocketException((int)SocketError.OperationAborted);
                return true;
            }

            if (_buffer.IsEmpty && _emptied)
            {
                if (_handoff.TryWait(_emptiedAt))
                {
                    return false;
                }

                _emptied = false;
                _unconfirmed = true;
                return true;
            }

            var observed = _handoff.Observe();
            var result = Receive(_buffer.Span);
            if (result >= 0)
            {
                _unconfirmed = false;
                if (_buffer.IsEmpty)
                {
                    return true;
                }

                received = (int)result;
                _emptied = received < _buffer.Length && !_ended;
                _emptiedAt = observed;
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            if (errno == LinuxSockets.Interrupted)
            {
                continue;
            }

            if (errno != LinuxSockets.WouldBlock)
            {
                // The parameterless constructor maps the last P/Invoke error, which is still this call's.
                error = new SocketException();
                return true;
            }

            if (_unconfirmed && !_buffer.IsEmpty)
            {
                _unconfirmed = false;
                _emptied = true;
                _emptiedAt = observed;
                received = ConnectionTransport.NothingReceived;
                return true;
            }

            _emptied = true;
            _emptiedAt = observed;
            if (_handoff.TryWait(observed))
            {
                return false;
            }
        }
    }

    private nint Receive(Span<byte> buffer)
    {
        if (buffer.IsEmpty)
        {
            byte peeked;
            return LinuxSockets.Receive(fd, &peeked, 1, LinuxSockets.Peek | LinuxSockets.DontWait);
        }

        fixed (byte* start = buffer)
        {
            return LinuxSockets.Receive(fd, start, buffer.Length, LinuxSockets.DontWait);
        }
    }
}
