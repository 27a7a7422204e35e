using System.Threading.Tasks.Sources;
using Berth.Messages;
using Berth.Threading;

namespace Berth.Zmq;

/// <summary>
/// A pending request whose reply is a <typeparamref name="TReply"/>: its own value-task source, back in the pool once
/// the caller has its result, so a round trip allocates nothing.
/// </summary>
internal sealed class ZmqPendingReply<TReply> : ZmqPendingRequest, IValueTaskSource<TReply>
    where TReply : IMessage<TReply>
{
    private static readonly InstancePool<ZmqPendingReply<TReply>> Pool = new(static () => new ZmqPendingReply<TReply>());

    private ManualResetValueTaskSourceCore<TReply> _core;

    private ZmqPendingReply()
    {
    }

    public ValueTask<TReply> Reply => new(this, _core.Version);

    public static ZmqPendingReply<TReply> Rent() => Pool.Rent();

    /// <summary>Gives back an instance that was never handed out as a task.</summary>
    public void Discard()
    {
        Forget();
        Pool.Return(this);
    }

    public override void Complete(int messageId, ReadOnlySpan<byte> body, ZmqSocket socket)
    {
        StopWatchingCancellation();
        if (messageId == TReply.MessageId && MessageReading.TryRead<TReply>(body, out var reply, out _))
        {
            _core.SetResult(reply);
            return;
        }

        socket.CountDropped();
        _core.SetException(new MessageFormatException("Envelope.Tag", 0, MessageFault.Malformed, $"a reply {messageId} that does not read as {typeof(TReply).Name} ({TReply.MessageId})"));
    }

    public override void Fail(Exception error)
    {
        StopWatchingCancellation();
        _core.SetException(error);
    }

    TReply IValueTaskSource<TReply>.GetResult(short token)
    {
        try
        {
            return _core.GetResult(token);
        }
        finally
        {
            _core.Reset();
            Discard();
        }
    }

    ValueTaskSourceStatus IValueTaskSource<TReply>.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<TReply>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
