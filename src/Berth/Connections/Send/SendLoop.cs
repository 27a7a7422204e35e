using Berth.Buffers;
using Berth.Connections.Transport;

namespace Berth.Connections.Send;

/// <summary>
/// The one sender of a connection: sleeps until a frame is queued, takes everything queued, writes it with one gather
/// send per <see cref="ConnectionTransport.MaxBuffersPerSend"/> arrays, returns the arrays to the pool, and repeats. On a flushing close it
/// drains the queue, then shuts the send side down; on an abort it stops at once.
/// </summary>
/// <remarks>
/// It runs on whichever thread wakes it or completes its send, never on a thread of its own; see
/// <see cref="ConnectionLifetime.Start"/>.
/// </remarks>
internal sealed class SendLoop(
    ConnectionTransport transport,
    SendQueue queue,
    SendWakeup wakeup,
    ConnectionLifetime lifetime)
{
    private readonly int _maxBuffersPerSend = transport.MaxBuffersPerSend;
    private readonly List<ArraySegment<byte>> _buffers = new(transport.MaxBuffersPerSend);

    public async Task RunAsync()
    {
        try
        {
            while (true)
            {
                // Read before draining: once closing is visible the queue refuses new frames, so this drain is the last,
                // unless the replies of a batch under way hold the queue; that batch's end wakes this loop again.
                var closing = lifetime.IsClosing;
                if (closing && !lifetime.FlushOnClose)
                {
                    return;
                }

                bool heldForReplies;
                while (queue.TakeBatch(out heldForReplies) is { } batch)
                {
                    for (var first = 0; first < batch.SegmentCount; first += _maxBuffersPerSend)
                    {
                        var sending = transport.SendAsync(Gather(batch, first));
                        if (!sending.IsCompleted && batch.HasLent)
                        {
                            OwnLent(batch, first);
                        }

                        await sending.ConfigureAwait(false);
                        lifetime.Activity.SendProgressed();
                    }

                    queue.BatchWritten(batch);
                }

                if (closing && !heldForReplies)
                {
                    transport.ShutdownSend();
                    lifetime.AbortAfterLinger();
                    return;
                }

                await wakeup.WaitAsync().ConfigureAwait(false);
            }
        }
        catch (Exception e) when (!lifetime.IsClosing)
        {
            lifetime.Close(DisconnectReason.SocketError, e, flush: false);
        }
        catch
        {
            // The socket was closed under a pending send; the frames left are reported unsent.
        }
        finally
        {
            lifetime.LoopEnded();
        }
    }

    /// <summary>
    /// The socket is full and <paramref name="batch"/> still refers to the receive buffer the batch was delivered
    /// from, which changes once this returns: copies those bytes and points the waiting send at the copies. Only the
    /// lending thread takes such a batch, and the transport finishes a waiting send only on that thread, so the send
    /// cannot read the list meanwhile.
    /// </summary>
    private void OwnLent(PooledBufferWriter batch, int first)
    {
        batch.OwnLent();
        for (var i = 0; i < _buffers.Count; i++)
        {
            _buffers[i] = batch.Segment(first + i);
        }
    }

    private List<ArraySegment<byte>> Gather(PooledBufferWriter batch, int first)
    {
        _buffers.Clear();
        var end = Math.Min(batch.SegmentCount, first + _maxBuffersPerSend);
        for (var i = first; i < end; i++)
        {
            _buffers.Add(batch.Segment(i));
        }

        return _buffers;
    }
}
