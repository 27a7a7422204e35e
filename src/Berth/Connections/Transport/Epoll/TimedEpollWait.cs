using System.Diagnostics;
using System.Runtime.InteropServices;
using Berth.Interop;

namespace Berth.Connections.Transport.Epoll;

/// <summary>
/// Waits for epoll events until a <see cref="Stopwatch"/> timestamp, to the nanosecond with <c>epoll_pwait2</c>
/// (Linux 5.11, glibc 2.35). <c>epoll_wait</c> counts whole milliseconds, which would make a timer due every 100 µs up
/// to a millisecond late; where <c>epoll_pwait2</c> is missing, the wait rounds up to the next millisecond instead.
/// </summary>
internal static unsafe partial class TimedEpollWait
{
    private const int NoSuchCall = 38;
    private const long NanosecondsPerSecond = 1_000_000_000;

    private static bool s_missing;

    /// <summary>Like <see cref="LinuxEpoll.Wait"/>, returning at the latest when the clock reaches <paramref name="until"/>.</summary>
    public static int Until(int epoll, byte* events, int maxEvents, long until)
    {
        var ticks = Math.Max(0, until - Stopwatch.GetTimestamp());
        var nanoseconds = (long)((double)ticks * NanosecondsPerSecond / Stopwatch.Frequency);
        if (!s_missing)
        {
            var timeout = new TimeSpec(nanoseconds / NanosecondsPerSecond, nanoseconds % NanosecondsPerSecond);
            try
            {
                var count = WaitPrecisely(epoll, events, maxEvents, &timeout, null);
                if (count >= 0 || Marshal.GetLastPInvokeError() != NoSuchCall)
                {
                    return count;
                }
            }
            catch (EntryPointNotFoundException)
            {
                // An older C library: fall through to whole milliseconds from now on.
            }

            s_missing = true;
        }

        return LinuxEpoll.Wait(epoll, events, maxEvents, (int)Math.Min(int.MaxValue, (nanoseconds + 999_999) / 1_000_000));
    }

    [LibraryImport("libc", EntryPoint = "epoll_pwait2", SetLastError = true)]
    private static partial int WaitPrecisely(int epoll, byte* events, int maxEvents, TimeSpec* timeout, void* signalMask);

    /// <summary><c>struct timespec</c> on 64-bit Linux.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private readonly record struct TimeSpec(long Seconds, long Nanoseconds);
}
