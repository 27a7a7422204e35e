using System.Buffers;
using System.Threading.Tasks.Sources;
using Berth.Buffers;
using Berth.Threading;

namespace Berth.Messages.Requests;

/// <summary>
/// A pending request whose reply is a <typeparamref name="TReply"/>; it is its own value-task source and goes back to
/// the pool once the caller has its result, so awaiting a round trip allocates nothing. The caller's continuation runs
/// on the thread that completes it: for a reply, the connection's receive loop.
/// </summary>
internal sealed class PendingReply<TReply> : PendingRequest, IValueTaskSource<TReply>
    where TReply : IMessage<TReply>
{
    private static readonly InstancePool<PendingReply<TReply>> Pool = new(static () => new PendingReply<TReply>());

    /// <summary>
    /// The instance this thread gave back last, taken before the shared pool: a caller that awaits on the event loop
    /// gets its result and sends its next request there, so a round trip's return and rent skip the pool's lock.
    /// </summary>
    [ThreadStatic]
    private static PendingReply<TReply>? t_spare;

    private ManualResetValueTaskSourceCore<TReply> _core;

    private PendingReply()
    {
    }

    public ValueTask<TReply> Reply => new(this, _core.Version);

    public static PendingReply<TReply> Rent()
    {
        if (t_spare is { } spare)
        {
            t_spare = null;
            return spare;
        }

        return Pool.Rent();
    }

    /// <summary>Gives back an instance that was never handed out as a task.</summary>
    public void Discard()
    {
        Forget();
        if (t_spare is null)
        {
            t_spare = this;
        }
        else
        {
            Pool.Return(this);
        }
    }

    public override void Complete(int messageId, in ReadOnlySequence<byte> body)
    {
        StopWatchingCancellation();
        TReply reply;
        try
        {
            if (messageId != TReply.MessageId)
            {
                throw new MessageFormatException("Envelope.Tag", sizeof(int) + sizeof(long), MessageFault.Malformed, $"reply id {messageId} where {TReply.MessageId} was awaited");
            }

            var reader = new PacketReader(body, TReply.ByteOrder);
            reply = TReply.Read(ref reader);
        }
        catch (MessageFormatException e)
        {
            _core.SetException(e);
            throw;
        }

        _core.SetResult(reply);
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
