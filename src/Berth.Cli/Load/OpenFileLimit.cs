using System.Runtime.InteropServices;

namespace Berth.Cli.Load;

/// <summary>
/// The process's open-file limit (RLIMIT_NOFILE): every session is a descriptor, and shells commonly start with a soft
/// limit of 1,024 under a much higher hard limit, so a run of thousands of sessions raises the soft limit first.
/// </summary>
internal static partial class OpenFileLimit
{
    /// <summary>Descriptors kept aside for the runtime, the terminal, files written and the epoll loops.</summary>
    public const int Reserved = 64;

    private const int ResourceOpenFiles = 7;

    /// <summary>
    /// Raises the soft limit towards the hard limit until <paramref name="descriptors"/> plus <see cref="Reserved"/>
    /// fit, and returns the soft limit in effect afterwards. Where the limit cannot be read (not Linux), returns null.
    /// </summary>
    public static long? RaiseFor(long descriptors)
    {
        if (!OperatingSystem.IsLinux() || GetLimit(ResourceOpenFiles, out var limit) != 0)
        {
            return null;
        }

        var wanted = (ulong)(descriptors + Reserved);
        if (limit.Current < wanted && limit.Current < limit.Maximum)
        {
            var raised = limit with { Current = Math.Min(wanted, limit.Maximum) };
            if (SetLimit(ResourceOpenFiles, raised) == 0)
            {
                limit = raised;
            }
        }

        return (long)Math.Min(limit.Current, long.MaxValue);
    }

    /// <summary>How many sessions fit under a soft limit of <paramref name="limit"/> descriptors.</summary>
    public static long SessionsWithin(long limit) => Math.Max(0, limit - Reserved);

    /// <summary>
    /// Raises the limit for <paramref name="sessions"/> descriptors; null when they fit, otherwise why not, with how
    /// many sessions can open and how to raise it.
    /// </summary>
    public static string? Shortfall(long sessions)
    {
        var limit = RaiseFor(sessions);
        return limit is { } soft && SessionsWithin(soft) < sessions
            ? $"the open-file limit is {soft} and cannot be raised further (hard limit reached), so at most "
                + $"{SessionsWithin(soft)} sessions can open, not {sessions}; raise the hard limit (ulimit -Hn, or LimitNOFILE= "
                + "for a service) and run again"
            : null;
    }

    [LibraryImport("libc", EntryPoint = "getrlimit")]
    private static partial int GetLimit(int resource, out ResourceLimit limit);

    [LibraryImport("libc", EntryPoint = "setrlimit")]
    private static partial int SetLimit(int resource, in ResourceLimit limit);

    /// <summary><c>struct rlimit</c> on 64-bit Linux.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private readonly record struct ResourceLimit(ulong Current, ulong Maximum);
}
