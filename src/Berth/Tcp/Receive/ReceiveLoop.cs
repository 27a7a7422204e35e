using Berth.Buffers;
using Berth.Framing;

namespace Berth.Tcp.Receive;

/// <summary>
/// The one loop that reads a connection: wait until the socket is readable, receive into the pooled ring, cut every
/// whole frame out of it in place, hand each body to the handler while it is still in the ring, then drop the
/// delivered bytes. A frame larger than the ring grows it (never past the largest frame). Once drained, the ring
/// gives its array back before the loop waits again, so an idle connection holds no receive buffer. While the
/// send queue is over its limit the loop neither delivers nor reads, so TCP flow control slows the peer down.
/// </summary>
internal sealed class ReceiveLoop
{
    private readonly Connection _connection;
    private readonly FrameDecoder _decoder;
    private readonly FrameDelivery _delivery;

    public ReceiveLoop(Connection connection)
    {
        _connection = connection;
        _decoder = new FrameDecoder(connection.Options.Format);
        _delivery = new FrameDelivery(connection, _decoder);
    }

    public async Task RunAsync()
    {
        var options = _connection.Options;
        var largestFrame = options.Format.HeaderLength + options.Format.MaxBodyLength;
        var ring = new RingBuffer(Math.Min(options.ReceiveBufferSize, largestFrame), largestFrame, options.BufferPool);
        try
        {
            var wanted = 1;
            while (true)
            {
                if (ring.Length == 0)
                {
                    ring.ReturnWhenEmpty();
                    // A zero-byte receive completes when data arrives (or the peer closes, which the next receive sees),
                    // so the buffer is rented only once there is something to put in it.
                    await _connection.Transport.ReceiveAsync(Memory<byte>.Empty).ConfigureAwait(false);
                }

                var received = await _connection.Transport.ReceiveAsync(ring.GetWriteMemory(wanted)).ConfigureAwait(false);
                if (received == 0)
                {
                    _connection.Close(DisconnectReason.ClosedByPeer, null, flush: true);
                    return;
                }

                ring.Advance(received);
                _connection.Received();
                _connection.Metrics.BytesReceived.Add(received);
                if (_connection.IsClosing)
                {
                    ring.Consume(ring.Length);
                    continue;
                }

                while ((wanted = _delivery.DeliverFrames(ring)) == FrameDelivery.Paused)
                {
                    _connection.PauseReceiving();
                    while (!_connection.IsClosing && _connection.QueuedBytes > _connection.ResumeBelow)
                    {
                        await _connection.Drained.WaitAsync().ConfigureAwait(false);
                    }

                    _connection.ResumeReceiving();
                }
            }
        }
        catch (Exception e) when (!_connection.IsClosing)
        {
            _connection.Close(DisconnectReason.SocketError, e, flush: false);
        }
        catch
        {
            // The connection was closed under the pending receive; its reason is already recorded.
        }
        finally
        {
            ring.Dispose();
            _connection.LoopEnded();
        }
    }
}
