using System.Diagnostics;
using Berth.Connections.Transport.Epoll;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

/// <summary>
/// The event loop's timer hook: a <see cref="LoopTimer"/> runs on the loop's own thread, never before its due time,
/// re-arms itself without allocating, and a loop left without due times goes back to sleeping until events.
/// </summary>
[Collection(nameof(AllocationTests))]
public sealed class LoopTimerTests(ITestOutputHelper output)
{
    /// <summary>A due time a little ahead, so each firing goes through a timed wait rather than a turn already due.</summary>
    private static readonly long Ahead = Stopwatch.Frequency / 20_000;

    [Fact]
    public async Task ATimerRunsOnTheLoopThreadAtOrAfterEachDueTime()
    {
        var loop = EpollLoopGroup.Next();
        var timer = new CountingTimer(loop, firings: 200);
        loop.Attach(timer, Stopwatch.GetTimestamp() + Ahead);

        await timer.Done.Within();

        Assert.Equal(200, timer.Fired);
        Assert.Equal(0, timer.OffTheLoop);
        Assert.Equal(0, timer.Early);
    }

    [Fact]
    public void FiringAllocatesNothing()
    {
        var loop = EpollLoopGroup.Next();
        var growth = AllocationGrowth.Measure(
            firings =>
            {
                var timer = new CountingTimer(loop, firings);
                loop.Attach(timer, Stopwatch.GetTimestamp() + Ahead);
                timer.Done.Within().GetAwaiter().GetResult();
            },
            messages: 500,
            output,
            "timer firings");

        Assert.True(growth < AllocationGrowth.Allowance, $"{growth} B more over the longer run");
    }

    [Fact]
    public async Task ATimerThatThrowsIsDroppedAndTheLoopGoesOn()
    {
        var loop = EpollLoopGroup.Next();
        var failing = new FailingTimer();
        loop.Attach(failing, Stopwatch.GetTimestamp());
        var error = await failing.Failed.Within();
        Assert.IsType<InvalidOperationException>(error);

        var after = new CountingTimer(loop, firings: 3);
        loop.Attach(after, Stopwatch.GetTimestamp());
        await after.Done.Within();
        Assert.Equal(1, failing.Calls);
    }

    [Fact]
    public async Task ALoopWithNoDueTimeSleepsUntilEvents()
    {
        const string name = "timer sleep";
        var loop = new EpollLoop(name);
        var timer = new CountingTimer(loop, firings: 20);
        loop.Attach(timer, Stopwatch.GetTimestamp() + Ahead);
        await timer.Done.Within();

        // The last firing returned no due time; once the loop's polling after its last event has ended, its thread
        // must not wake again: no context switch of its own while nothing happens.
        var task = LoopThread(name);
        await Task.Delay(200);
        var before = Switches(task);
        await Task.Delay(500);
        var after = Switches(task);
        output.WriteLine($"loop thread {task}: {before} then {after} context switches");
        Assert.Equal(before, after);
        Assert.Equal(20, timer.Fired);
    }

    /// <summary>The /proc task directory of the thread named <paramref name="name"/> (the kernel keeps 15 characters).</summary>
    private static string LoopThread(string name) =>
        Assert.Single(Directory.GetDirectories("/proc/self/task"), task => File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n') == name);

    private static long Switches(string task)
    {
        long total = 0;
        foreach (var line in File.ReadLines(Path.Combine(task, "status")))
        {
            if (line.StartsWith("voluntary_ctxt_switches:", StringComparison.Ordinal) || line.StartsWith("nonvoluntary_ctxt_switches:", StringComparison.Ordinal))
            {
                total += long.Parse(line[(line.IndexOf(':') + 1)..].Trim(), System.Globalization.CultureInfo.InvariantCulture);
            }
        }

        return total;
    }

    /// <summary>Fires a set number of times, each due a little after the last firing, and checks where and when it ran.</summary>
    private sealed class CountingTimer(EpollLoop loop, int firings) : LoopTimer
    {
        private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task Done => _done.Task;

        public int Fired { get; private set; }

        public int OffTheLoop { get; private set; }

        public int Early { get; private set; }

        public override long OnDue(long now)
        {
            Fired++;
            OffTheLoop += loop.IsCurrentThread ? 0 : 1;
            Early += now < Due || Stopwatch.GetTimestamp() < Due ? 1 : 0;
            if (Fired < firings)
            {
                return now + Ahead;
            }

            _done.TrySetResult();
            return Never;
        }

        public override void OnFailed(Exception error) => _done.TrySetException(error);
    }

    private sealed class FailingTimer : LoopTimer
    {
        private readonly TaskCompletionSource<Exception> _failed = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task<Exception> Failed => _failed.Task;

        public int Calls { get; private set; }

        public override long OnDue(long now)
        {
            Calls++;
            throw new InvalidOperationException("a failing timer");
        }

        public override void OnFailed(Exception error) => _failed.TrySetResult(error);
    }
}
