using System.Globalization;

namespace Berth.Cli.Zmq;

/// <summary>
/// This process's minor page faults as the kernel counts them (<c>/proc/self/stat</c>), read around the clocked part of
/// a throughput run as the C programs read <c>getrusage</c>. A count, so a busy machine does not distort it as it
/// distorts a rate; the bench reports it per message because frames that fault fresh pages every time were what made
/// runs bimodal (docs/decisions/zmq-bimodal.md).
/// </summary>
internal static class PageFaults
{
    /// <summary>The faults so far; 0 where /proc is missing, so a difference is 0 too.</summary>
    public static long Count()
    {
        if (!File.Exists("/proc/self/stat"))
        {
            return 0;
        }

        // The fields after the command name, which is in parentheses and may hold spaces: the state is field 0 here.
        var stat = File.ReadAllText("/proc/self/stat");
        return long.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[7], CultureInfo.InvariantCulture);
    }
}
