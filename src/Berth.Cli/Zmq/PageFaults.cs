using System.Globalization;

namespace Berth.Cli.Zmq;

/// <summary>
/// Minor page faults as the kernel counts them (<c>/proc/self/stat</c>): this process's own, or those of its children
/// that have exited and been reaped. A count, so a busy machine does not distort it as it distorts a rate; the bench
/// reports it per message because a frame that faults fresh pages every time was what made runs bimodal
/// (docs/decisions/zmq-bimodal.md).
/// </summary>
internal static class PageFaults
{
    private const int OwnField = 7;
    private const int ReapedChildrenField = 8;

    /// <summary>The faults so far of this process (<paramref name="ownProcess"/>) or of its reaped children; null where /proc is missing.</summary>
    public static long? Count(bool ownProcess)
    {
        string stat;
        try
        {
            stat = File.ReadAllText("/proc/self/stat");
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }

        // The fields after the command name, which is in parentheses and may hold spaces: state is field 0 here.
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return long.Parse(fields[ownProcess ? OwnField : ReapedChildrenField], CultureInfo.InvariantCulture);
    }
}
