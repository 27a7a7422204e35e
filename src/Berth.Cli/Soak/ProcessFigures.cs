namespace Berth.Cli.Soak;

/// <summary>Figures of this process read from /proc (Linux): resident memory, open descriptors, threads.</summary>
internal static class ProcessFigures
{
    /// <summary>Resident set size in bytes (VmRSS), or 0 where /proc is missing.</summary>
    public static long ResidentBytes() => StatusField("VmRSS:") * 1024;

    /// <summary>Threads of this process.</summary>
    public static long Threads() => StatusField("Threads:");

    /// <summary>Open file descriptors: sockets, files, pipes and the runtime's own.</summary>
    public static int OpenHandles() => Directory.Exists("/proc/self/fd") ? Directory.GetFileSystemEntries("/proc/self/fd").Length : 0;

    private static long StatusField(string name)
    {
        if (!File.Exists("/proc/self/status"))
        {
            return 0;
        }

        foreach (var line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith(name, StringComparison.Ordinal))
            {
                var digits = line.AsSpan(name.Length).Trim().ToString().Split(' ')[0];
                return long.Parse(digits, System.Globalization.CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }
}
