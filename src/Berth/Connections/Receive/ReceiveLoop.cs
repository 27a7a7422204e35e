using Berth.Buffers;
using Berth.Connections.Send;
using Berth.Connections.Transport;

namespace Berth.Connections.Receive;

/// <summary>
/// The one loop that reads a connection: wait until the socket is readable, receive into the pooled ring, cut every
/// whole frame out of it in place, hand each body to the handler while it is still in the ring, then drop the
/// delivered bytes. A frame larger than the ring grows it (never past the largest frame). Once drained, the ring
/// gives its array back before the loop waits again, so an idle connection holds no receive buffer. While the
/// send queue is over its limit the loop neither delivers nor reads, so TCP flow control slows the peer down.
/// In one sentence: it reads the <paramref name="transport"/> into the <paramref name="ring"/>, hands the ring to the
/// <paramref name="delivery"/>, waits at the <paramref name="gate"/> while the send side is full, and tells the
/// <paramref name="lifetime"/> when the stream ends or fails.
/// </summary>
internal sealed class ReceiveLoop(
    ConnectionTransport transport,
    RingBuffer ring,
    FrameDelivery delivery,
    SendGate gate,
    ConnectionLifetime lifetime)
{
    public async Task RunAsync()
    {
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
                    await transport.ReceiveAsync(Memory<byte>.Empty).ConfigureAwait(false);
                }

                var received = await transport.ReceiveAsync(ring.GetWriteMemory(wanted)).ConfigureAwait(false);
                if (received == ConnectionTransport.NothingReceived)
                {
                    continue;
                }

                if (received == 0)
                {
                    lifetime.Close(DisconnectReason.ClosedByPeer, null, flush: true);
                    return;
                }

                ring.Advance(received);
                delivery.Received(received);
                if (lifetime.IsClosing)
                {
                    ring.Consume(ring.Length);
                    continue;
                }

                while ((wanted = delivery.DeliverFrames(ring, transport.CompletesSendsOnCurrentThread)) == FrameDelivery.Paused)
                {
                    lifetime.Activity.PauseReceiving();
                    await gate.WaitUntilOpenAsync().ConfigureAwait(false);
                    lifetime.Activity.ResumeReceiving();
                }
            }
        }
        catch (Exception e) when (!lifetime.IsClosing)
        {
            lifetime.Close(DisconnectReason.SocketError, e, flush: false);
        }
        catch
        {
            // The connection was closed under the pending receive; its reason is already recorded.
        }
        finally
        {
            ring.Dispose();
            lifetime.LoopEnded();
        }
    }
}
