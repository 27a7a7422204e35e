using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Berth.Cli.Load;

/// <summary>
/// Sleeps until a <see cref="Stopwatch"/> timestamp on the kernel's high-resolution timer. <see cref="Thread.Sleep(int)"/>
/// counts whole milliseconds, at least one, so a schedule with a request due every 100 µs (10,000 sessions at one request
/// a second) woke once a millisecond and sent each request up to a millisecond late; the C rate client waits with a
/// nanosecond timeout for the same reason.
/// </summary>
internal static partial class DueTimeSleep
{
    private const int ClockMonotonic = 1;
    private const long NanosecondsPerSecond = 1_000_000_000;

    /// <summary>The longest single sleep, so that a sparse schedule still notices the end of its window soon.</summary>
    private static readonly long LongestSleep = Stopwatch.Frequency / 10;

    /// <summary>
    /// Sleeps until <paramref name="due"/>, or for a tenth of a second if that is sooner; may return early (a signal),
    /// so callers check the clock again. Where the monotonic clock cannot be slept on directly (not Linux), sleeps in
    /// whole milliseconds.
    /// </summary>
    public static void Until(long due)
    {
        var ticks = Math.Min(due - Stopwatch.GetTimestamp(), LongestSleep);
        if (ticks <= 0)
        {
            return;
        }

        if (!OperatingSystem.IsLinux())
        {
            Thread.Sleep(Math.Max(1, (int)(ticks * 1000 / Stopwatch.Frequency)));
            return;
        }

        var nanoseconds = (long)((double)ticks * NanosecondsPerSecond / Stopwatch.Frequency);
        var interval = new TimeSpec(nanoseconds / NanosecondsPerSecond, nanoseconds % NanosecondsPerSecond);
        _ = Sleep(ClockMonotonic, 0, in interval, IntPtr.Zero);
    }

    [LibraryImport("libc", EntryPoint = "clock_nanosleep")]
    private static partial int Sleep(int clock, int flags, in TimeSpec interval, IntPtr remaining);

    /// <summary><c>struct timespec</c> on 64-bit Linux.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private readonly record struct TimeSpec(long Seconds, long Nanoseconds);
}
