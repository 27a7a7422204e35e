namespace Berth.Zmq.Tests;

/// <summary>
/// The single-owner guard once a thread owns the socket, so that its calls claim it by their per-thread slot rather
/// than the state word: another thread (a call or a dispose) is still refused while the owner is inside, and takes
/// the socket over once the owner is out.
/// </summary>
public sealed class OwnerGuardTests : IDisposable
{
    /// <summary>More calls in a row than make a thread the owner.</summary>
    private const int Kept = 1000;

    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    [Fact]
    public void While_the_owner_is_inside_a_call_a_call_from_another_thread_is_refused()
    {
        var (pull, push) = Pair("inproc://owner-call");
        using (pull)
        using (push)
        {
            var owner = BlockInReceive(pull);

            // Twice: a refused claim must leave the socket as guarded as it found it.
            for (var attempt = 0; attempt < 2; attempt++)
            {
                var refused = Assert.Throws<InvalidOperationException>(() => pull.ReceiveHighWatermark = 5);
                Assert.Contains("two threads", refused.Message, StringComparison.Ordinal);
            }

            push.Send("release"u8);
            Assert.True(owner.Join(Endpoints.Patience));
            pull.ReceiveHighWatermark = 5;
            Assert.Equal(5, pull.ReceiveHighWatermark);
        }
    }

    [Fact]
    public void While_the_owner_is_inside_a_call_a_dispose_from_another_thread_is_refused()
    {
        var (pull, push) = Pair("inproc://owner-dispose");
        using (push)
        {
            var owner = BlockInReceive(pull);

            Assert.Throws<InvalidOperationException>(pull.Dispose);

            push.Send("release"u8);
            Assert.True(owner.Join(Endpoints.Patience));
            pull.Dispose();
            Assert.Throws<ObjectDisposedException>(() => pull.Receive(new byte[8]));
        }
    }

    [Fact]
    public void Another_thread_takes_the_socket_over_once_the_owner_is_out()
    {
        var (pull, push) = Pair("inproc://owner-handover");
        using (pull)
        using (push)
        {
            var owner = new Thread(() => Keep(pull));
            owner.Start();
            Assert.True(owner.Join(Endpoints.Patience));

            push.Send("next"u8);
            Assert.Equal("next", pull.ReceiveString());
            Keep(pull);
        }
    }

    private (ZmqSocket Pull, ZmqSocket Push) Pair(string endpoint)
    {
        var pull = _context.Create(ZmqSocketType.Pull);
        var push = _context.Create(ZmqSocketType.Push);
        pull.Bind(endpoint);
        push.Connect(endpoint);
        return (pull, push);
    }

    /// <summary>Makes the calling thread the socket's owner by calling it many times in a row.</summary>
    private static void Keep(ZmqSocket socket)
    {
        Span<byte> buffer = stackalloc byte[8];
        for (var i = 0; i < Kept; i++)
        {
            Assert.False(socket.TryReceive(buffer, out _));
        }
    }

    /// <summary>Starts a thread that owns <paramref name="pull"/> and blocks in a receive; returns once it is inside.</summary>
    private static Thread BlockInReceive(ZmqSocket pull)
    {
        using var kept = new ManualResetEventSlim();
        var owner = new Thread(() =>
        {
            Keep(pull);
            kept.Set();
            pull.Receive(new byte[8]);
        });
        owner.Start();
        Assert.True(kept.Wait(Endpoints.Patience), "the owner never finished its calls");

        // Its receive is the only call left, and nothing is sent: once it is inside, it stays.
        var giveUp = DateTime.UtcNow + Endpoints.Patience;
        while (!pull.InCall)
        {
            Assert.True(owner.IsAlive && DateTime.UtcNow < giveUp, "the owner never entered its receive");
            Thread.Yield();
        }

        return owner;
    }
}
