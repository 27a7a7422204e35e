namespace Berth.Connections.Transport.Epoll;

/// <summary>The process's event loops, one per core, started on first use; sockets are spread over them in turn.</summary>
internal static class EpollLoopGroup
{
    private static readonly EpollLoop[] s_loops = CreateLoops();
    private static uint s_next;

    public static EpollLoop Next() => s_loops[Interlocked.Increment(ref s_next) % (uint)s_loops.Length];

    private static EpollLoop[] CreateLoops()
    {
        var loops = new EpollLoop[Environment.ProcessorCount];
        for (var i = 0; i < loops.Length; i++)
        {
            loops[i] = new EpollLoop($"Berth epoll {i}");
        }

        return loops;
    }
}
