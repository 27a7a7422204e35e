using Berth.Connections;
using Berth.Threading;

namespace Berth.Messages.Requests;

/// <summary>
/// Waits for an asynchronous request handler that did not finish at once, then sends its reply or error reply and frees
/// its slot in the connection's <see cref="HandlerSlots"/>. Pooled, with one cached continuation each, so waiting
/// allocates nothing of its own.
/// </summary>
internal sealed class HandlerCompletion<TReply>
    where TReply : IMessage<TReply>
{
    private static readonly InstancePool<HandlerCompletion<TReply>> Pool = new(static () => new HandlerCompletion<TReply>());

    private readonly Action _finish;
    private Connection? _connection;
    private long _correlation;
    private ValueTask<TReply> _handler;

    private HandlerCompletion() => _finish = Finish;

    /// <summary>Takes a slot for the handler, which the connection's receive path sees at once, and waits for it.</summary>
    public static void Await(Connection connection, long correlation, ValueTask<TReply> handler)
    {
        var completion = Pool.Rent();
        (completion._connection, completion._correlation, completion._handler) = (connection, correlation, handler);
        connection.HandlerSlots.Take();
        handler.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(completion._finish);
    }

    private void Finish()
    {
        var (connection, correlation, handler) = (_connection!, _correlation, _handler);
        (_connection, _handler) = (null, default);
        Pool.Return(this);
        try
        {
            Replies.Send(connection, correlation, handler.GetAwaiter().GetResult());
        }
        catch (RequestRejectedException e)
        {
            Replies.SendError(connection, correlation, e);
        }
        catch (Exception e)
        {
            connection.Lifetime.CloseForHandlerFailure(e);
        }
        finally
        {
            connection.HandlerSlots.Release();
        }
    }
}
