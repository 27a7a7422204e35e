using System.Buffers;
using Berth.Connections;

namespace Berth.Tests.Tcp;

public sealed class SchedulingTests
{
    [Fact]
    public async Task InlineSchedulingRunsTheHandlerOnAnEventLoopThread()
    {
        var handler = new ThreadRecordingHandler();
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.Inline }, handler);
        using var client = new RawClient(server.EndPoint);

        // The receive loop starts on a pool thread and moves to its event loop once a receive has to wait; the pause
        // makes the second frame arrive after that.
        client.SendFrame([1]);
        Assert.Equal(new byte[] { 1 }, client.ReceiveFrame());
        Thread.Sleep(200);
        client.SendFrame([2]);
        Assert.Equal(new byte[] { 2 }, client.ReceiveFrame());
        Assert.StartsWith("Berth epoll", handler.LastThreadName);
    }

    [Fact]
    public async Task ThreadPoolSchedulingRunsTheHandlerOnThePool()
    {
        var handler = new ThreadRecordingHandler();
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.ThreadPool }, handler);
        using var client = new RawClient(server.EndPoint);
        client.SendFrame([1]);
        Assert.Equal(new byte[] { 1 }, client.ReceiveFrame());
        Assert.True(handler.LastOnPool);
    }

    [Fact]
    public async Task AHandlerThatBlocksUnderThreadPoolSchedulingDoesNotStallAnotherConnection()
    {
        using var release = new ManualResetEventSlim();
        var handler = new BlockOnEmptyFrame(release);
        await using var server = EchoTests.Start(new BerthServerOptions { HandlerScheduling = HandlerScheduling.ThreadPool }, handler);
        using var blocked = new RawClient(server.EndPoint);
        using var other = new RawClient(server.EndPoint);
        blocked.SendFrame([]);
        Assert.True(handler.Blocking.Wait(Waits.Patience));

        for (var i = 0; i < 100; i++)
        {
            other.SendFrame([(byte)i]);
            Assert.Equal(new[] { (byte)i }, other.ReceiveFrame());
        }

        release.Set();
        Assert.Empty(blocked.ReceiveFrame());
    }

    [Fact]
    public async Task AClientRunsItsHandlerOnAnEventLoopThreadToo()
    {
        await using var server = EchoTests.Start(new BerthServerOptions());
        var handler = new ThreadRecordingHandler { Echo = false };
        await using var client = new BerthClient(new BerthClientOptions { Port = server.EndPoint.Port }, handler);
        var connection = await client.ConnectAsync();
        Thread.Sleep(200);
        Assert.True(connection.TrySend([5]));
        await Waits.Until(() => handler.LastThreadName is not null);
        Assert.StartsWith("Berth epoll", handler.LastThreadName);
    }

    [Fact]
    public async Task AConnectionWhoseDataNeverRunsOutDoesNotStallTheOthersOnItsLoop()
    {
        var handler = new EchoShortFrames();
        await using var server = EchoTests.Start(new BerthServerOptions(), handler);
        using var flooder = new RawClient(server.EndPoint);
        var witnesses = Enumerable.Range(0, Environment.ProcessorCount + 1).Select(_ => new RawClient(server.EndPoint)).ToList();
        using var done = new CancellationTokenSource();

        // The flood goes on until the witnesses are done; its own limit is only a hang guard.
        var flooding = Task.Factory.StartNew(
            () =>
            {
                var frame = RawClient.Frame(new byte[65_536]);
                var giveUp = DateTime.UtcNow + Waits.Patience;
                while (!done.IsCancellationRequested && DateTime.UtcNow < giveUp)
                {
                    flooder.Send(frame);
                }
            },
            TaskCreationOptions.LongRunning);
        try
        {
            await Waits.Until(() => handler.FloodFrames > 0);
            var floodedBefore = handler.FloodFrames;
            foreach (var witness in witnesses)
            {
                for (var i = 0; i < 20; i++)
                {
                    witness.SendFrame([(byte)i]);
                    Assert.Equal(new[] { (byte)i }, witness.ReceiveFrame());
                }
            }

            // Every witness was served while the flood was still running and the server still taking its frames.
            Assert.False(flooding.IsCompleted, "the flood had stopped before the witnesses were served");
            Assert.True(handler.FloodFrames > floodedBefore, "the server took no flood frame while the witnesses were served");
        }
        finally
        {
            await done.CancelAsync();
            await flooding.Within();
            witnesses.ForEach(w => w.Dispose());
        }
    }

    private sealed class EchoShortFrames : ConnectionHandler
    {
        private long _floodFrames;

        public long FloodFrames => Interlocked.Read(ref _floodFrames);

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (body.Length < 100)
            {
                connection.TrySend(body);
                return;
            }

            // A flood frame costs the loop more than it costs the flooder to send, so the flooder's socket keeps data
            // waiting while the witnesses are served.
            Interlocked.Increment(ref _floodFrames);
            Thread.SpinWait(5_000);
        }
    }

    private sealed class ThreadRecordingHandler : ConnectionHandler
    {
        public volatile string? LastThreadName;

        public volatile bool LastOnPool;

        public bool Echo { get; init; } = true;

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            LastOnPool = Thread.CurrentThread.IsThreadPoolThread;
            LastThreadName = Thread.CurrentThread.Name ?? string.Empty;
            if (Echo)
            {
                connection.TrySend(body);
            }
        }
    }

    private sealed class BlockOnEmptyFrame(ManualResetEventSlim release) : ConnectionHandler
    {
        public ManualResetEventSlim Blocking { get; } = new();

        public override void OnFrame(Connection connection, in ReadOnlySequence<byte> body)
        {
            if (body.IsEmpty)
            {
                Blocking.Set();
                release.Wait(Waits.Patience);
            }

            connection.TrySend(body);
        }
    }
}
