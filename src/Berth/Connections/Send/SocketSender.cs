using System.Net.Sockets;
using Berth.Threading;

namespace Berth.Connections.Send;

/// <summary>
/// Sends a list of buffers in one gather call through one reusable <see cref="SocketAsyncEventArgs"/> per connection,
/// awaited as a <see cref="ValueTask"/>. <c>Socket.SendAsync(IList&lt;ArraySegment&gt;)</c> returns a Task and
/// allocates on every call; this does not.
/// </summary>
internal sealed class SocketSender : ReusableAwaitable<int>, IDisposable
{
    private readonly SocketAsyncEventArgs _args = new(unsafeSuppressExecutionContextFlow: true);

    public SocketSender()
    {
        _args.Completed += (_, _) => Complete();
    }

    public ValueTask<int> SendAsync(Socket socket, IList<ArraySegment<byte>> buffers)
    {
        Reset();
        if (buffers.Count == 1)
        {
            // One array needs no iovec list: the single-buffer path pins with `fixed` instead of a GCHandle per buffer.
            _args.BufferList = null;
            _args.SetBuffer(buffers[0].Array, buffers[0].Offset, buffers[0].Count);
        }
        else
        {
            _args.SetBuffer(null, 0, 0);
            _args.BufferList = buffers;
        }

        if (socket.SendAsync(_args))
        {
            return Pending;
        }

        return _args.SocketError == SocketError.Success
            ? new ValueTask<int>(_args.BytesTransferred)
            : ValueTask.FromException<int>(new SocketException((int)_args.SocketError));
    }

    public void Dispose() => _args.Dispose();

    private void Complete()
    {
        if (_args.SocketError == SocketError.Success)
        {
            SetResult(_args.BytesTransferred);
        }
        else
        {
            SetException(new SocketException((int)_args.SocketError));
        }
    }
}
