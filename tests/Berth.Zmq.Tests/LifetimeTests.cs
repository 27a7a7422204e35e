namespace Berth.Zmq.Tests;

public sealed class LifetimeTests
{
    [Fact]
    public void A_disposed_socket_raises_ObjectDisposedException_on_every_call()
    {
        using var context = new ZmqContext();
        var socket = context.CreateSocket(ZmqSocketType.Push);
        socket.Dispose();
        socket.Dispose();

        Assert.Throws<ObjectDisposedException>(() => socket.Send("x"u8));
        Assert.Throws<ObjectDisposedException>(() => socket.TrySend("x"u8));
        Assert.Throws<ObjectDisposedException>(() => socket.Bind("inproc://gone"));
        Assert.Throws<ObjectDisposedException>(() => socket.SendHighWatermark);
        Assert.Throws<ObjectDisposedException>(() => socket.ReceiveAsync(new byte[1]));
        Assert.Throws<ObjectDisposedException>(() => PollOne(socket));
    }

    [Fact]
    public void A_disposed_message_or_context_raises_ObjectDisposedException()
    {
        var message = new ZmqMessage();
        message.Dispose();
        Assert.Throws<ObjectDisposedException>(() => message.Size);
        Assert.Throws<ObjectDisposedException>(() => message.InitSize(4));

        var context = new ZmqContext();
        var socket = context.CreateSocket(ZmqSocketType.Pull);
        context.Dispose();
        Assert.Throws<ObjectDisposedException>(() => context.CreateSocket(ZmqSocketType.Push));
        Assert.Throws<ObjectDisposedException>(() => socket.Receive(new byte[1]));
    }

    [Fact]
    public void Using_a_socket_from_a_second_thread_while_the_first_is_inside_a_call_is_refused()
    {
        using var context = new ZmqContext();
        using var pull = context.CreateSocket(ZmqSocketType.Pull);
        using var push = context.CreateSocket(ZmqSocketType.Push);
        pull.Bind("inproc://owner");
        push.Connect("inproc://owner");
        using var inside = new ManualResetEventSlim();
        var owner = new Thread(() =>
        {
            inside.Set();
            pull.Receive(new byte[8]);
        });
        owner.Start();
        inside.Wait();

        // The owner may not have entered libzmq yet; wait until the socket is claimed.
        InvalidOperationException? refused = null;
        for (var attempt = 0; attempt < 1000 && refused is null; attempt++)
        {
            try
            {
                pull.ReceiveHighWatermark = 5;
                Thread.Sleep(1);
            }
            catch (InvalidOperationException e)
            {
                refused = e;
            }
        }

        Assert.NotNull(refused);
        Assert.Contains("two threads", refused.Message, StringComparison.Ordinal);
        push.Send("release"u8);
        Assert.True(owner.Join(Endpoints.Patience));
    }

    [Fact]
    public void Disposing_the_context_unblocks_a_blocked_receive_and_closes_the_socket()
    {
        var context = new ZmqContext();
        var pull = context.CreateSocket(ZmqSocketType.Pull);
        pull.Bind("inproc://blocked");
        Exception? failure = null;
        var returned = false;
        var owner = new Thread(() =>
        {
            try
            {
                pull.Receive(new byte[8]);
                returned = true;
            }
            catch (Exception e)
            {
                failure = e;
            }
        });
        owner.Start();

        // Nothing is ever sent, so once the owner holds the socket its receive can only be blocked in libzmq.
        var giveUp = DateTime.UtcNow + Endpoints.Patience;
        while (!pull.InCall)
        {
            Assert.True(owner.IsAlive && DateTime.UtcNow < giveUp, $"the receive never started: {failure}");
            Thread.Yield();
        }

        context.Dispose();

        Assert.True(owner.Join(Endpoints.Patience));
        Assert.False(returned, "the receive returned without a message");
        // ETERM reaches only a call that was inside libzmq; a receive that had not started would get ObjectDisposedException.
        Assert.True(failure is ZmqException { IsContextTerminated: true }, failure?.ToString());
        Assert.Throws<ObjectDisposedException>(() => pull.Receive(new byte[8]));
    }

    [Fact]
    public void The_missing_library_error_names_the_package_to_install()
    {
        var error = new ZmqLibraryNotFoundException("libzmq.so.5");
        Assert.Contains("apt-get install libzmq5", error.Message, StringComparison.Ordinal);
    }

    private static bool PollOne(ZmqSocket socket)
    {
        var poller = new ZmqPoller();
        poller.Add(socket, ZmqPollEvents.In);
        return poller.Poll(TimeSpan.Zero) > 0;
    }
}
