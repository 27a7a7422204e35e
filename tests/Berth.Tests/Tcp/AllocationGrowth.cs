using System.Diagnostics;
using System.Runtime;
using Xunit.Abstractions;

namespace Berth.Tests.Tcp;

/// <summary>
/// Zero allocation per message, as the brief states it: the bytes allocated process-wide
/// (<see cref="GC.GetTotalAllocatedBytes(bool)"/>) do not grow with the number of messages. A run of N messages and a
/// run of 10N are measured one after the other, and the second may allocate at most <see cref="Allowance"/> more
/// than the first, a constant that does not depend on N.
/// </summary>
internal static class AllocationGrowth
{
    /// <summary>
    /// 16 KiB: room for what the runtime allocates now and then on its own while the longer run lasts (a timer, a
    /// thread-pool thread injected on a loaded machine, a method tiered up: a few KiB each), and far less than the
    /// smallest per-message allocation costs over the extra 9N messages (one 24 B object each time: 2 MiB at N =
    /// 10,000; it exceeds the allowance for any N of 76 or more).
    /// </summary>
    /// <remarks>
    /// Part of that background is per unit of time, not per message: in the test process the runtime polls for a
    /// process's exit every 100 ms with a <c>Task.Delay</c> (<c>ProcessWaitState.WaitForExitAsync</c>), about
    /// 2 KiB a second. The longer run lasts longer, so this grows with the extra seconds: the allowance holds it for
    /// about 8 extra seconds. Each attempt's output line gives both runs' durations, the methods the JIT compiled
    /// during each and the thread pool's threads, so a failure shows whether the growth followed the seconds, the
    /// runtime's own work or the messages. Code on the measuring side must allocate nothing while it waits: a message
    /// string formatted on every poll once cost 14 KiB a second on a loaded machine.
    /// </remarks>
    public const long Allowance = 16 * 1024;

    /// <summary>How long the JIT must have compiled nothing, messages flowing, before the runs are measured.</summary>
    private static readonly TimeSpan s_settled = TimeSpan.FromMilliseconds(500);

    /// <summary>The longest the warm-up waits for the JIT to settle; a path that never settles is measured anyway.</summary>
    private static readonly TimeSpan s_settleAtMost = TimeSpan.FromSeconds(20);

    /// <summary>
    /// Runs <paramref name="run"/> for N = <paramref name="messages"/> messages, then for 10N, and returns how many
    /// more bytes the 10N run allocated. A per-message allocation grows every attempt; a background one lands in one
    /// attempt and not the next, so up to three attempts are made and the least growth is returned. The runs start
    /// once the JIT has settled (<see cref="WarmUntilSettled"/>).
    /// </summary>
    public static long Measure(Action<int> run, int messages, ITestOutputHelper output, string what)
    {
        var (warmRuns, warmSeconds) = WarmUntilSettled(run, messages);
        // Written at the end: the test framework takes a line in on threads of its own, which allocate and compile
        // while the next run is being counted.
        var lines = new List<string> { $"{what}: warmed with {warmRuns} runs of {messages} messages over {warmSeconds:F1} s" };
        var least = long.MaxValue;
        for (var attempt = 0; attempt < 3 && least >= Allowance; attempt++)
        {
            var started = Stopwatch.GetTimestamp();
            var compiledAtStart = JitInfo.GetCompiledMethodCount();
            var threadsAtStart = ThreadPool.ThreadCount;
            var few = Allocated(run, messages);
            var between = Stopwatch.GetTimestamp();
            var compiledBetween = JitInfo.GetCompiledMethodCount();
            var many = Allocated(run, 10 * messages);
            var ended = Stopwatch.GetTimestamp();
            var compiledAtEnd = JitInfo.GetCompiledMethodCount();
            var threadsAtEnd = ThreadPool.ThreadCount;
            least = Math.Min(least, many - few);
            lines.Add(
                $"{what}: {few} B over {messages} messages ({Stopwatch.GetElapsedTime(started, between).TotalSeconds:F1} s, " +
                $"{compiledBetween - compiledAtStart} methods compiled), {many} B over {10 * messages} " +
                $"({Stopwatch.GetElapsedTime(between, ended).TotalSeconds:F1} s, {compiledAtEnd - compiledBetween} methods compiled): " +
                $"grew {many - few} B; thread-pool threads {threadsAtStart} to {threadsAtEnd}");
        }

        foreach (var line in lines)
        {
            output.WriteLine(line);
        }

        return least;
    }

    /// <summary>
    /// Runs <paramref name="run"/> until the JIT compiled no method over <see cref="s_settled"/> of runs: tiering a
    /// method up allocates, and a path first taken under load is compiled, then recompiled at tier 1 about a tenth of a
    /// second after its calls were counted, so on a slower machine a warm-up counted in messages alone can end before
    /// that, and the tier-ups land in the 10N run. Returns the runs and the seconds it took.
    /// </summary>
    private static (int Runs, double Seconds) WarmUntilSettled(Action<int> run, int messages)
    {
        var started = Stopwatch.GetTimestamp();
        var runs = 0;
        while (true)
        {
            var compiled = JitInfo.GetCompiledMethodCount();
            var windowStart = Stopwatch.GetTimestamp();
            do
            {
                run(messages);
                runs++;
            }
            while (Stopwatch.GetElapsedTime(windowStart) < s_settled);

            var elapsed = Stopwatch.GetElapsedTime(started);
            if (JitInfo.GetCompiledMethodCount() == compiled || elapsed > s_settleAtMost)
            {
                return (runs, elapsed.TotalSeconds);
            }
        }
    }

    /// <summary>The bytes allocated process-wide while <paramref name="run"/> handles <paramref name="messages"/> messages.</summary>
    private static long Allocated(Action<int> run, int messages)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        run(messages);
        return GC.GetTotalAllocatedBytes(precise: true) - before;
    }
}
