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

    [Fact]
    public void A_former_owner_is_refused_while_the_new_owner_is_inside()
    {
        var (pull, push) = Pair("inproc://owner-former");
        using (pull)
        using (push)
        {
            using var owned = new ManualResetEventSlim();
            using var tryAgain = new ManualResetEventSlim();
            Exception? refused = null;
            var former = new Thread(() =>
            {
                Keep(pull);
                owned.Set();
                tryAgain.Wait(Endpoints.Patience);
                refused = Record.Exception(() => pull.TryReceive(new byte[8], out _));
            });
            former.Start();
            Assert.True(owned.Wait(Endpoints.Patience));

            var current = BlockInReceive(pull);
            tryAgain.Set();
            Assert.True(former.Join(Endpoints.Patience));
            var exception = Assert.IsType<InvalidOperationException>(refused);
            Assert.Contains("two threads", exception.Message, StringComparison.Ordinal);

            push.Send("release"u8);
            Assert.True(current.Join(Endpoints.Patience));
            Keep(pull);
        }
    }

    [Fact]
    public void A_thread_that_owns_two_sockets_is_inside_only_the_one_it_calls()
    {
        var (first, firstPush) = Pair("inproc://owner-two-a");
        var (second, secondPush) = Pair("inproc://owner-two-b");
        using (first)
        using (firstPush)
        using (second)
        using (secondPush)
        {
            using var kept = new ManualResetEventSlim();
            var owner = new Thread(() =>
            {
                for (var round = 0; round < 10; round++)
                {
                    Keep(first);
                    Keep(second);
                }

                kept.Set();
                first.Receive(new byte[8]);
            });
            owner.Start();
            Assert.True(kept.Wait(Endpoints.Patience));
            WaitInside(first, owner);

            Assert.Throws<InvalidOperationException>(() => first.TryReceive(new byte[8], out _));
            secondPush.Send("free"u8);
            Assert.Equal("free", second.ReceiveString());

            firstPush.Send("release"u8);
            Assert.True(owner.Join(Endpoints.Patience));
            Keep(first);
        }
    }

    [Fact]
    public void Two_threads_calling_at_once_get_only_the_two_threads_refusal_and_leave_the_socket_usable()
    {
        var (pull, push) = Pair("inproc://owner-race");
        using (pull)
        using (push)
        {
            var unexpected = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
            using var start = new Barrier(2);
            void Hammer()
            {
                start.SignalAndWait(Endpoints.Patience);
                Span<byte> buffer = stackalloc byte[8];
                for (var i = 0; i < 20 * Kept; i++)
                {
                    try
                    {
                        pull.TryReceive(buffer, out _);
                    }
                    catch (InvalidOperationException refused) when (refused.Message.Contains("two threads", StringComparison.Ordinal))
                    {
                    }
                    catch (Exception other)
                    {
                        unexpected.Enqueue(other);
                        return;
                    }
                }
            }

            var threads = new[] { new Thread(Hammer), new Thread(Hammer) };
            foreach (var thread in threads)
            {
                thread.Start();
            }

            foreach (var thread in threads)
            {
                Assert.True(thread.Join(Endpoints.Patience));
            }

            Assert.Empty(unexpected);
            push.Send("after"u8);
            Assert.Equal("after", pull.ReceiveString());
            Keep(pull);
        }
    }

    [Fact]
    public void A_socket_handed_from_thread_to_thread_works_for_each_in_turn()
    {
        var (pull, push) = Pair("inproc://owner-relay");
        using (pull)
        using (push)
        {
            for (var hop = 0; hop < 8; hop++)
            {
                var text = $"hop {hop}";
                var holder = new Thread(() =>
                {
                    Keep(pull);
                    push.Send(System.Text.Encoding.UTF8.GetBytes(text));
                    Assert.Equal(text, pull.ReceiveString());
                });
                holder.Start();

                // Join is the hand-off: the next thread starts after this one has made its last call.
                Assert.True(holder.Join(Endpoints.Patience));
            }

            Keep(pull);
            Assert.False(pull.InCall);
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

        WaitInside(pull, owner);
        return owner;
    }

    /// <summary>Returns once <paramref name="owner"/> is inside its last call on <paramref name="socket"/>, a receive that nothing answers yet.</summary>
    private static void WaitInside(ZmqSocket socket, Thread owner)
    {
        var giveUp = DateTime.UtcNow + Endpoints.Patience;
        while (!socket.InCall)
        {
            Assert.True(owner.IsAlive && DateTime.UtcNow < giveUp, "the owner never entered its receive");
            Thread.Yield();
        }
    }
}
