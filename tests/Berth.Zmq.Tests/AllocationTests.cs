namespace Berth.Zmq.Tests;

/// <summary>
/// Single-thread round trips: nothing but the calling thread runs managed code, so its own counter sees everything.
/// The bytes it allocates must not grow with the number of messages: a run of 10N allocates less than
/// <see cref="AllocationWorkload.Allowance"/> more than a run of N.
/// </summary>
public sealed class AllocationTests : IDisposable
{
    private const int Messages = 10_000;
    private const int WarmUp = 2_000;
    private readonly ZmqContext _context = new();

    public void Dispose() => _context.Dispose();

    public static TheoryData<string> Endpoints => ["inproc://allocation", "tcp://127.0.0.1:*"];

    [Theory]
    [MemberData(nameof(Endpoints))]
    public void Small_span_sends_and_receives_allocate_nothing_per_message(string endpoint)
    {
        var (push, pull) = Connect(endpoint);
        using (push)
        using (pull)
        {
            Span<byte> payload = stackalloc byte[64];
            Span<byte> buffer = stackalloc byte[64];
            RoundTrips(push, pull, payload, buffer, WarmUp);

            var before = GC.GetAllocatedBytesForCurrentThread();
            RoundTrips(push, pull, payload, buffer, Messages);
            var few = GC.GetAllocatedBytesForCurrentThread() - before;
            before = GC.GetAllocatedBytesForCurrentThread();
            RoundTrips(push, pull, payload, buffer, 10 * Messages);
            var many = GC.GetAllocatedBytesForCurrentThread() - before;

            AssertNoGrowth(few, many);
        }
    }

    [Fact]
    public void Message_frames_reused_for_send_and_receive_allocate_nothing_per_message()
    {
        var (push, pull) = Connect("inproc://allocation-message");
        using (push)
        using (pull)
        using (var outgoing = new ZmqMessage())
        using (var incoming = new ZmqMessage())
        {
            void Run(int count)
            {
                for (var i = 0; i < count; i++)
                {
                    outgoing.InitSize(64);
                    push.Send(outgoing);
                    pull.Receive(incoming);
                }
            }

            Run(WarmUp);
            AssertNoGrowth(Allocated(Run, Messages), Allocated(Run, 10 * Messages));
        }
    }

    [Fact]
    public void Async_sends_and_receives_that_complete_at_once_allocate_nothing_per_message()
    {
        var (push, pull) = Connect("inproc://allocation-async");
        using (push)
        using (pull)
        {
            var payload = new byte[64];
            var buffer = new byte[64];
            void Run(int count)
            {
                for (var i = 0; i < count; i++)
                {
                    var sent = push.SendAsync(payload);
                    Assert.True(sent.IsCompletedSuccessfully);
                    var received = pull.ReceiveAsync(buffer);
                    Assert.True(received.IsCompletedSuccessfully);
                }
            }

            Run(WarmUp);
            AssertNoGrowth(Allocated(Run, Messages), Allocated(Run, 10 * Messages));
        }
    }

    private static long Allocated(Action<int> run, int messages)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        run(messages);
        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    private static void AssertNoGrowth(long few, long many) =>
        Assert.True(
            many - few < AllocationWorkload.Allowance,
            $"{few} bytes over {Messages} messages, {many} over {10 * Messages}: grew {many - few} bytes");

    private (ZmqSocket Push, ZmqSocket Pull) Connect(string endpoint)
    {
        var pull = _context.Create(ZmqSocketType.Pull);
        var push = _context.Create(ZmqSocketType.Push);
        pull.Bind(endpoint);
        push.Connect(pull.LastEndpoint);
        return (push, pull);
    }

    private static void RoundTrips(ZmqSocket push, ZmqSocket pull, ReadOnlySpan<byte> payload, Span<byte> buffer, int count)
    {
        for (var i = 0; i < count; i++)
        {
            push.Send(payload);
            pull.Receive(buffer);
        }
    }
}
