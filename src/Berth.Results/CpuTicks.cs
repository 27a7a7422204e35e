using System.Globalization;

namespace Berth.Results;

/// <summary>
/// CPU time in clock ticks from <c>/proc</c>: the whole machine's, and a process tree's. Both count in the same unit
/// (USER_HZ), so one can be subtracted from the other. Null where <c>/proc</c> cannot be read (not Linux).
/// </summary>
internal static class CpuTicks
{
    /// <summary>All ticks and busy ticks (everything but idle and iowait) of all cores since boot.</summary>
    public static (long All, long Busy)? Machine()
    {
        try
        {
            var line = File.ReadLines("/proc/stat").First(l => l.StartsWith("cpu ", StringComparison.Ordinal));
            // user nice system idle iowait irq softirq steal; guest and guest_nice are already inside user and nice.
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8)
                .Select(f => long.Parse(f, CultureInfo.InvariantCulture)).ToArray();
            var all = fields.Sum();
            return (all, all - fields[3] - fields[4]);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>
    /// CPU ticks of <paramref name="rootPid"/> and every live process descended from it: utime + stime + cutime + cstime
    /// each, so descendants that exited and were reaped inside the tree still count.
    /// </summary>
    public static long? ProcessTree(int rootPid)
    {
        if (!Directory.Exists("/proc"))
        {
            return null;
        }

        var stats = new Dictionary<int, (int Parent, long Ticks)>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && Read(pid) is { } stat)
            {
                stats[pid] = stat;
            }
        }

        if (!stats.ContainsKey(rootPid))
        {
            return null;
        }

        var children = stats.ToLookup(s => s.Value.Parent, s => s.Key);
        long total = 0;
        var pending = new Stack<int>([rootPid]);
        while (pending.TryPop(out var pid))
        {
            total += stats[pid].Ticks;
            foreach (var child in children[pid])
            {
                pending.Push(child);
            }
        }

        return total;
    }

    private static (int Parent, long Ticks)? Read(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // The command name is in parentheses and may hold spaces; the fields after it start with the state (field 3).
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            var parent = int.Parse(fields[1], CultureInfo.InvariantCulture);
            var ticks = Enumerable.Range(11, 4).Sum(i => long.Parse(fields[i], CultureInfo.InvariantCulture));
            return (parent, ticks);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            // The process exited between listing /proc and reading it.
            return null;
        }
    }
}
