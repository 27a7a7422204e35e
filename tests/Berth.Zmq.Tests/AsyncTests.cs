using System.Text;

namespace Berth.Zmq.Tests;

/// <summary>
/// Every async case runs against both readiness reactors, epoll and the portable <c>zmq_poll</c> one, each with woken
/// continuations queued to the thread pool (the default) and run inline on the reactor thread.
/// </summary>
public sealed class AsyncTests : IDisposable
{
    private readonly List<ZmqContext> _contexts = [];

    public static TheoryData<string> Reactors => ["epoll", "poll", "epoll-inline", "poll-inline"];

    public void Dispose()
    {
        foreach (var context in _contexts)
        {
            context.Dispose();
        }
    }

    private ZmqContext Open(string reactor)
    {
        var context = new ZmqContext
        {
            PortableReactor = reactor.StartsWith("poll", StringComparison.Ordinal) || !OperatingSystem.IsLinux(),
            InlineCompletions = reactor.EndsWith("-inline", StringComparison.Ordinal),
        };
        _contexts.Add(context);
        return context;
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task ReceiveAsync_completes_when_a_message_arrives_later(string reactor)
    {
        var context = Open(reactor);
        using var push = context.Create(ZmqSocketType.Push);
        using var pull = context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        var buffer = new byte[16];

        var pending = pull.ReceiveAsync(buffer).AsTask();
        Assert.False(pending.IsCompleted);
        push.Send("late"u8);

        Assert.Equal(4, await pending.WaitAsync(Endpoints.Patience));
        Assert.Equal("late", Encoding.UTF8.GetString(buffer, 0, 4));
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task Many_async_receives_in_a_row_never_lose_an_edge(string reactor)
    {
        var context = Open(reactor);
        using var push = context.Create(ZmqSocketType.Push);
        using var pull = context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        const int Count = 2000;
        var sender = Task.Run(async () =>
        {
            for (var i = 0; i < Count; i++)
            {
                await push.SendAsync(BitConverter.GetBytes(i));
                if (i % 97 == 0)
                {
                    await Task.Yield();
                }
            }
        });

        var buffer = new byte[4];
        for (var i = 0; i < Count; i++)
        {
            await pull.ReceiveAsync(buffer).AsTask().WaitAsync(Endpoints.Patience);
            Assert.Equal(i, BitConverter.ToInt32(buffer));
        }

        await sender.WaitAsync(Endpoints.Patience);
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task Cancelling_a_pending_receive_ends_it_and_loses_nothing(string reactor)
    {
        var context = Open(reactor);
        using var push = context.Create(ZmqSocketType.Push);
        using var pull = context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        using var cancellation = new CancellationTokenSource();
        var buffer = new byte[16];

        var pending = pull.ReceiveAsync(buffer, cancellation.Token).AsTask();
        cancellation.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pending.WaitAsync(Endpoints.Patience));

        // The socket is usable again, and the next message is the first one sent.
        push.Send("after"u8);
        Assert.Equal(5, await pull.ReceiveAsync(buffer).AsTask().WaitAsync(Endpoints.Patience));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pull.ReceiveAsync(buffer, cancellation.Token).AsTask());
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task SendAsync_waits_for_room_below_the_high_water_mark(string reactor)
    {
        var context = Open(reactor);
        using var push = context.Create(ZmqSocketType.Push);
        push.SendHighWatermark = 1;
        using var pull = context.Create(ZmqSocketType.Pull);
        pull.ReceiveHighWatermark = 1;
        pull.Connect(push.BindLoopback());

        // Fill every queue until a send would block, then an async send must wait for the reader.
        var sent = 0;
        var payload = new byte[200_000];
        while (push.TrySend(payload))
        {
            sent++;
            Assert.True(sent < 10_000);
            if (sent % 8 == 0)
            {
                Thread.Sleep(1);
            }
        }

        var pending = push.SendAsync(payload).AsTask();
        var buffer = new byte[payload.Length];
        for (var i = 0; i <= sent; i++)
        {
            pull.Receive(buffer);
        }

        await pending.WaitAsync(Endpoints.Patience);
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task Multipart_async_round_trip_through_dealer_and_router(string reactor)
    {
        var context = Open(reactor);
        using var router = context.Create(ZmqSocketType.Router);
        using var dealer = context.Create(ZmqSocketType.Dealer);
        dealer.Connect(router.BindLoopback());

        var received = new List<byte[]>();
        var pending = router.ReceiveMultipartAsync(received).AsTask();
        await dealer.SendMultipartAsync(["one"u8.ToArray(), "two"u8.ToArray()]);
        await pending.WaitAsync(Endpoints.Patience);
        Assert.Equal(3, received.Count);
        Assert.Equal("two", Encoding.UTF8.GetString(received[2]));

        await router.SendMultipartAsync([received[0], "back"u8.ToArray()]);
        using var message = new ZmqMessage();
        await dealer.ReceiveAsync(message).AsTask().WaitAsync(Endpoints.Patience);
        Assert.Equal("back", message.ToString());
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task Twenty_sockets_waiting_at_once_are_each_woken_by_their_own_message(string reactor)
    {
        var context = Open(reactor);
        const int Count = 20;
        var pushes = new ZmqSocket[Count];
        var pulls = new ZmqSocket[Count];
        var pending = new Task<int>[Count];
        try
        {
            for (var i = 0; i < Count; i++)
            {
                pushes[i] = context.Create(ZmqSocketType.Push);
                pulls[i] = context.Create(ZmqSocketType.Pull);
                pulls[i].Connect(pushes[i].BindLoopback());
                pending[i] = pulls[i].ReceiveAsync(new byte[4]).AsTask();
            }

            // Reverse order, so that each wake must reach the socket it belongs to.
            for (var i = Count - 1; i >= 0; i--)
            {
                pushes[i].Send(BitConverter.GetBytes(i));
                Assert.Equal(4, await pending[i].WaitAsync(Endpoints.Patience));
            }
        }
        finally
        {
            foreach (var socket in pushes.Concat(pulls))
            {
                socket?.Dispose();
            }
        }
    }

    [Theory]
    [MemberData(nameof(Reactors))]
    public async Task Disposing_a_socket_fails_its_pending_receive_with_ObjectDisposedException(string reactor)
    {
        var context = Open(reactor);
        var pull = context.Create(ZmqSocketType.Pull);
        pull.BindLoopback();
        var pending = pull.ReceiveAsync(new byte[4]).AsTask();

        pull.Dispose();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => pending.WaitAsync(Endpoints.Patience));
    }

    [Theory]
    [InlineData("epoll-inline")]
    [InlineData("poll-inline")]
    public async Task An_inline_continuation_runs_on_the_reactor_thread_and_may_dispose_the_context(string reactor)
    {
        var context = Open(reactor);
        var push = context.Create(ZmqSocketType.Push);
        push.Linger = Endpoints.Patience;
        var pull = context.Create(ZmqSocketType.Pull);
        pull.Connect(push.BindLoopback());
        var buffer = new byte[16];
        var pending = pull.ReceiveAsync(buffer);
        Assert.False(pending.IsCompleted);
        var continued = ContinueAsync(pending);

        push.Send("woken"u8);
        push.Dispose();

        var (received, thread) = await continued.WaitAsync(Endpoints.Patience);
        Assert.Equal(5, received);
        Assert.StartsWith("berth-zmq-", thread, StringComparison.Ordinal);
        Assert.Throws<ObjectDisposedException>(() => context.CreateSocket(ZmqSocketType.Pull));

        async Task<(int Size, string? Thread)> ContinueAsync(ValueTask<int> receive)
        {
            var size = await receive.ConfigureAwait(false);
            var name = Thread.CurrentThread.Name;
            pull.Dispose();
            context.Dispose();
            return (size, name);
        }
    }
}
