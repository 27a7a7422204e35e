namespace Berth.Zmq.Tests;

/// <summary>Limits and failures: an oversized frame costs only its sender's connection; a context shut down under an awaited receive.</summary>
public sealed class FaultTests : IDisposable
{
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void A_frame_above_MaxMessageSize_disconnects_its_sender_and_the_next_peer_is_served()
    {
        using var pull = _context.Create(ZmqSocketType.Pull);
        pull.MaxMessageSize = 1024;
        var endpoint = pull.BindLoopback();
        using var monitor = pull.Monitor(ZmqMonitorEvents.Disconnected);
        using var offender = _context.Create(ZmqSocketType.Push);
        offender.Connect(endpoint);
        offender.Send(new byte[4096]);
        offender.Send(new byte[16]);

        // The oversized frame breaks the offender's session: the PULL reports the disconnect. No other peer has
        // connected yet and nothing else closes a connection here, so this event is the offender's.
        Assert.True(monitor.TryReceive(Endpoints.Patience, out var disconnected), "the offender was never disconnected");
        Assert.Equal(ZmqMonitorEvents.Disconnected, disconnected.Event);

        using var polite = _context.Create(ZmqSocketType.Push);
        polite.Connect(endpoint);
        polite.Send("within the limit"u8);

        // The oversized frame never arrives; the other peer is served. (The offender reconnects and may still deliver
        // its small frame, which is within the limit.)
        using var frame = new ZmqMessage();
        do
        {
            pull.Receive(frame);
            Assert.True(frame.Size <= 1024, $"a {frame.Size} B frame passed a 1024 B limit");
        }
        while (frame.ToString() != "within the limit");
    }

    [Fact]
    public async Task Shutting_the_context_down_under_an_awaited_receive_fails_it_with_context_terminated()
    {
        var context = new ZmqContext();
        var pull = context.CreateSocket(ZmqSocketType.Pull);
        pull.BindLoopback();
        var pending = pull.ReceiveAsync(new byte[16]).AsTask();
        Assert.False(pending.IsCompleted);

        var shutdown = Task.Run(context.Dispose);
        var error = await Assert.ThrowsAnyAsync<Exception>(() => pending.WaitAsync(Endpoints.Patience));
        await shutdown.WaitAsync(Endpoints.Patience);

        Assert.True(
            error is ObjectDisposedException || (error is ZmqException zmq && zmq.IsContextTerminated),
            $"unexpected {error.GetType().Name}: {error.Message}");
        Assert.Throws<ObjectDisposedException>(() => pull.Receive(new byte[16]));
    }

    [Fact]
    public void A_bound_peer_that_restarts_mid_stream_receives_what_is_sent_after_the_restart()
    {
        using var push = _context.Create(ZmqSocketType.Push);
        push.ReconnectInterval = TimeSpan.FromMilliseconds(10);
        string endpoint;
        using (var first = _context.Create(ZmqSocketType.Pull))
        {
            endpoint = first.BindLoopback();
            push.Connect(endpoint);
            push.Send("before"u8);
            Assert.Equal("before", first.ReceiveString());
        }

        // libzmq closes the first listener on its I/O thread after the socket is closed: bind again once the port is free.
        using var second = _context.Create(ZmqSocketType.Pull);
        var deadline = DateTime.UtcNow + Endpoints.Patience;
        while (true)
        {
            try
            {
                second.Bind(endpoint);
                break;
            }
            catch (ZmqException) when (DateTime.UtcNow < deadline)
            {
                Thread.Sleep(10);
            }
        }

        // Until the PUSH has noticed the restart, a frame may still go down the pipe to the closed peer and be dropped
        // with it: probe until one arrives over the new connection, so every frame after that goes over it.
        var probe = new byte[16];
        var probed = false;
        while (!probed)
        {
            Assert.True(DateTime.UtcNow < deadline, "the PUSH never reconnected to the restarted peer");
            push.Send("probe"u8);
            Thread.Sleep(10);
            while (second.TryReceive(probe, out _))
            {
                probed = true;
            }
        }

        for (var i = 0; i < 10; i++)
        {
            push.Send($"after-{i}");
        }

        for (var i = 0; i < 10; i++)
        {
            var received = second.ReceiveString();
            while (received == "probe")
            {
                received = second.ReceiveString();
            }

            Assert.Equal($"after-{i}", received);
        }
    }
}
