using System.Net.Sockets;
using System.Threading.Tasks.Sources;

namespace Berth.Tcp.Send;

/// <summary>
/// One reusable <see cref="SocketAsyncEventArgs"/> per connection that sends a list of buffers in one gather call
/// and is awaited as a <see cref="ValueTask"/>. <c>Socket.SendAsync(IList&lt;ArraySegment&gt;)</c> returns a Task
/// and allocates on every call; this does not.
/// </summary>
internal sealed class SocketSender : SocketAsyncEventArgs, IValueTaskSource<int>
{
    private ManualResetValueTaskSourceCore<int> _source;

    public SocketSender()
        : base(unsafeSuppressExecutionContextFlow: true)
    {
    }

    public ValueTask<int> SendAsync(Socket socket, IList<ArraySegment<byte>> buffers)
    {
        _source.Reset();
        if (buffers.Count == 1)
        {
            // One array needs no iovec list: the single-buffer path pins with `fixed` instead of a GCHandle per buffer.
            BufferList = null;
            SetBuffer(buffers[0].Array, buffers[0].Offset, buffers[0].Count);
        }
        else
        {
            SetBuffer(null, 0, 0);
            BufferList = buffers;
        }

        if (socket.SendAsync(this))
        {
            return new ValueTask<int>(this, _source.Version);
        }

        return SocketError == SocketError.Success
            ? new ValueTask<int>(BytesTransferred)
            : ValueTask.FromException<int>(new SocketException((int)SocketError));
    }

    protected override void OnCompleted(SocketAsyncEventArgs e)
    {
        if (SocketError == SocketError.Success)
        {
            _source.SetResult(BytesTransferred);
        }
        else
        {
            _source.SetException(new SocketException((int)SocketError));
        }
    }

    int IValueTaskSource<int>.GetResult(short token) => _source.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _source.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _source.OnCompleted(continuation, state, token, flags);
}
