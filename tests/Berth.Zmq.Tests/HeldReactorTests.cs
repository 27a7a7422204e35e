namespace Berth.Zmq.Tests;

/// <summary>
/// Woken continuations run on the reactor thread by default; one that blocks there must not stall the context's other
/// sockets. Witnessed by events only: other sockets' round trips all complete while the blocking continuation is
/// still blocked, on both readiness reactors.
/// </summary>
public sealed class HeldReactorTests
{
    private const int RoundTrips = 20;

    [Theory]
    [InlineData("epoll")]
    [InlineData("poll")]
    public async Task A_continuation_that_blocks_the_reactor_thread_does_not_stall_other_sockets(string reactor)
    {
        using var context = new ZmqContext { PortableReactor = reactor == "poll" || !OperatingSystem.IsLinux() };
        Assert.True(context.InlineCompletions);
        using var push = context.Create(ZmqSocketType.Push);
        using var pull = context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        using var server = context.Create(ZmqSocketType.Rep);
        using var client = context.Create(ZmqSocketType.Req);
        client.Connect(server.BindLoopback());
        using var release = new ManualResetEventSlim();
        var blocking = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);

        var buffer = new byte[16];
        var pending = pull.ReceiveAsync(buffer);
        Assert.False(pending.IsCompleted);
        var held = BlockAsync(pending);
        push.Send("hold"u8);

        Assert.True(await blocking.Task.WaitAsync(Endpoints.Patience), "the continuation ran on the reactor thread");
        var echo = Task.Run(() => EchoAsync(server));
        for (var i = 0; i < RoundTrips; i++)
        {
            await client.SendAsync(BitConverter.GetBytes(i)).AsTask().WaitAsync(Endpoints.Patience);
            var reply = new byte[4];
            await client.ReceiveAsync(reply).AsTask().WaitAsync(Endpoints.Patience);
            Assert.Equal(i, BitConverter.ToInt32(reply));
        }

        Assert.False(held.IsCompleted, "the other socket's round trips completed while the continuation was still blocked");
        release.Set();
        await held.WaitAsync(Endpoints.Patience);
        await echo.WaitAsync(Endpoints.Patience);

        // The socket whose continuation blocked keeps working, now woken through the thread pool.
        var next = pull.ReceiveAsync(buffer);
        push.Send("next"u8);
        Assert.Equal(4, await next.AsTask().WaitAsync(Endpoints.Patience));

        async Task BlockAsync(ValueTask<int> receive)
        {
            await receive.ConfigureAwait(false);
            blocking.SetResult(context.Reactor.OnReactorThread);
            release.Wait(Endpoints.Patience);
        }
    }

    private static async Task EchoAsync(ZmqSocket server)
    {
        var request = new byte[4];
        for (var i = 0; i < RoundTrips; i++)
        {
            await server.ReceiveAsync(request).ConfigureAwait(false);
            await server.SendAsync(request).ConfigureAwait(false);
        }
    }
}
