namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// Work an <see cref="EpollLoop"/> runs on its own thread once a due time has passed. The loop ends its wait at the
/// earliest due time of its timers, so work that must happen at a time (a paced request) runs on the thread that owns
/// the sockets it touches, as a C loop does with its <c>epoll_wait</c> timeout, instead of a thread of its own sleeping
/// until then and handing over to the loop: a wake-up of that thread and a hop per firing.
/// </summary>
/// <remarks>
/// A timer is attached once (<see cref="EpollLoop.Attach"/>) and then re-arms itself through the due time
/// <see cref="OnDue"/> returns; firing allocates nothing. A loop with no timer waits for events alone.
/// </remarks>
internal abstract class LoopTimer
{
    /// <summary>The due time that means none: the loop drops a timer that returns it.</summary>
    public const long Never = long.MaxValue;

    /// <summary>The next due time, a <see cref="System.Diagnostics.Stopwatch"/> timestamp; read and written on the loop's thread only.</summary>
    internal long Due { get; set; }

    /// <summary>
    /// On the loop's thread, at or after <see cref="Due"/>: does what fell due by <paramref name="now"/> and returns the
    /// next due time, or <see cref="Never"/> to be dropped. A due time already past runs again on the next turn.
    /// </summary>
    public abstract long OnDue(long now);

    /// <summary>On the loop's thread: <see cref="OnDue"/> threw <paramref name="error"/>, and the timer was dropped.</summary>
    public abstract void OnFailed(Exception error);
}
