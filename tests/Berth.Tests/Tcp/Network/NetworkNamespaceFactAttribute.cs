using System.Diagnostics;

namespace Berth.Tests.Tcp.Network;

/// <summary>
/// A test that needs to make network namespaces and veth pairs (root and iproute2's <c>ip</c>). It is skipped, with
/// the reason, only where it cannot run by design: off Linux, or not as root. As root it always runs, so a machine
/// (CI) that lacks <c>ip</c> or namespaces fails it instead of reporting it skipped.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class NetworkNamespaceFactAttribute : FactAttribute
{
    public NetworkNamespaceFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs network namespaces: not Linux";
        }
        else if (!Environment.IsPrivilegedProcess)
        {
            Skip = "needs network namespaces: not root";
        }
    }
}

/// <summary>Runs iproute2's <c>ip</c>.</summary>
internal static class Ip
{
    public static (bool Succeeded, string Error) Run(string arguments)
    {
        var start = new ProcessStartInfo("ip", arguments) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEnd();
        process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(10_000))
        {
            process.Kill();
            return (false, "ip did not finish");
        }

        return (process.ExitCode == 0, error);
    }

    public static void MustRun(string arguments)
    {
        var (succeeded, error) = Run(arguments);
        if (!succeeded)
        {
            throw new InvalidOperationException($"ip {arguments}: {error}");
        }
    }
}
