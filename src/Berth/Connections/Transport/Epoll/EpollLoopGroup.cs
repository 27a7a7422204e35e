namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// The process's event loops, one per core unless <c>BERTH_EPOLL_LOOPS</c> names another positive count, started on
/// first use; sockets are spread over them in turn. The count is a variable of the environment rather than an option
/// because the loops are shared by every server and client of the process: it exists so that one loop can be compared
/// with one per core on the same build (a loop thread fewer than cores leaves a core to the peers of a small machine,
/// at the price of that loop's parallelism).
/// </summary>
internal static class EpollLoopGroup
{
    /// <summary>The variable of the environment that sets how many loops the process runs.</summary>
    public const string LoopCountVariable = "BERTH_EPOLL_LOOPS";

    private static readonly EpollLoop[] s_loops = CreateLoops();
    private static uint s_next;

    public static EpollLoop Next() => s_loops[Interlocked.Increment(ref s_next) % (uint)s_loops.Length];

    /// <summary>The count <c>BERTH_EPOLL_LOOPS</c> sets, or one per core when it is unset or not a positive number.</summary>
    public static int LoopCount(string? setting) =>
        int.TryParse(setting, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var count) && count > 0
            ? count
            : Environment.ProcessorCount;

    private static EpollLoop[] CreateLoops()
    {
        var loops = new EpollLoop[LoopCount(Environment.GetEnvironmentVariable(LoopCountVariable))];
        for (var i = 0; i < loops.Length; i++)
        {
            loops[i] = new EpollLoop($"Berth epoll {i}");
        }

        return loops;
    }
}
