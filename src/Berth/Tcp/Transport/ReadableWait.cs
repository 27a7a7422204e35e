using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading.Tasks.Sources;

namespace Berth.Tcp.Transport;

/// <summary>
/// Waits until a socket is readable, reusably and without allocating. A zero-byte receive that went asynchronous can
/// complete on a readiness event for bytes a previous receive already took, with nothing left to read (seen on Linux
/// under load); the caller would then rent a buffer and hold it in a pending receive. So each completion is checked
/// with a zero-timeout poll, and a spurious one waits again.
/// </summary>
internal sealed class ReadableWait : IValueTaskSource<int>
{
    private readonly Socket _socket;
    private readonly Action _continue;
    private ManualResetValueTaskSourceCore<int> _source;
    private ConfiguredValueTaskAwaitable<int>.ConfiguredValueTaskAwaiter _pending;

    public ReadableWait(Socket socket)
    {
        _socket = socket;
        _continue = Continue;
    }

    /// <summary>Completes with 0 once <paramref name="receive"/>, a pending zero-byte receive, saw data or the end of the stream.</summary>
    public ValueTask<int> WaitAsync(ValueTask<int> receive)
    {
        _source.Reset();
        Await(receive);
        return new ValueTask<int>(this, _source.Version);
    }

    int IValueTaskSource<int>.GetResult(short token) => _source.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _source.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _source.OnCompleted(continuation, state, token, flags);

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

            _source.SetResult(0);
        }
        catch (Exception e)
        {
            _source.SetException(e);
        }
    }
}
