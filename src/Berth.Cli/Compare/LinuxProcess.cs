using System.Globalization;
using System.Runtime.InteropServices;

namespace Berth.Cli.Compare;

/// <summary>What the comparison reads about a server process from <c>/proc</c>, and the polite way to stop it.</summary>
internal static partial class LinuxProcess
{
    private const int SigTerm = 15;
    private const int ClockTicksName = 2; // _SC_CLK_TCK

    private static readonly double ClockTicksPerSecond = Math.Max(1, Sysconf(ClockTicksName));

    /// <summary>User plus system CPU time the process has used so far (utime + stime of <c>/proc/PID/stat</c>).</summary>
    public static double CpuSeconds(int pid)
    {
        var stat = File.ReadAllText($"/proc/{pid}/stat");
        // The command name is in parentheses and may hold spaces; the fields after it start with the state (field 3).
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        var ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
        return ticks / ClockTicksPerSecond;
    }

    /// <summary>Resident set size in bytes (VmRSS of <c>/proc/PID/status</c>).</summary>
    public static long ResidentBytes(int pid)
    {
        foreach (var line in File.ReadLines($"/proc/{pid}/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
            {
                var kilobytes = line["VmRSS:".Length..].Trim().Split(' ')[0];
                return long.Parse(kilobytes, CultureInfo.InvariantCulture) * 1024;
            }
        }

        throw new IOException($"no VmRSS for process {pid}");
    }

    /// <summary>Sends SIGTERM, so a server can close its connections and exit on its own.</summary>
    public static void Terminate(int pid) => _ = Kill(pid, SigTerm);

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int pid, int signal);

    [LibraryImport("libc", EntryPoint = "sysconf")]
    private static partial long Sysconf(int name);
}
