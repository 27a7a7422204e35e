using System.Net.Sockets;
using System.Runtime.CompilerServices;
using Berth.Threading;

namespace Berth.Connections.Transport;

/// <summary>
/// Waits until a socket is readable, reusably and without allocating. A zero-byte receive that went asynchronous can
/// complete on a readiness event for bytes a previous receive already took, with nothing left to read (seen on Linux
/// under load); the caller would then rent a buffer and hold it in a pending receive. So each completion is checked
/// with a zero-timeout poll, and a spurious one waits again.
/// </summary>
internal sealed class ReadableWait : ReusableAwaitable<int>
{
    private readonly Socket _socket;
    private readonly Action _continue;
    private ConfiguredValueTaskAwaitable<int>.ConfiguredValueTaskAwaiter _pending;

    public ReadableWait(Socket socket)
    {
        _socket = socket;
        _continue = Continue;
    }

    /// <summary>Completes with 0 once <paramref name="receive"/>, a pending zero-byte receive, saw data or the end of the stream.</summary>
    public ValueTask<int> WaitAsync(ValueTask<int> receive)
    {
        Reset();
        Await(receive);
        return Pending;
    }

    private void Await(ValueTask<int> receive)
    {
        _pending = receive.ConfigureAwait(false).GetAwaiter();
        _pending.UnsafeOnCompleted(_continue);
    }

    private void Continue()
    {
        try
        {
            _pending.GetResult();
            while (!_socket.Poll(0, SelectMode.SelectRead))
            {
                var again = _socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None);
                if (!again.IsCompleted)
                {
                    Await(again);
                    return;
                }

                again.GetAwaiter().GetResult();
            }

            SetResult(0);
        }
        catch (Exception e)
        {
            SetException(e);
        }
    }
}
