using System.Diagnostics;

namespace Berth.Tests.Tcp.Network;

/// <summary>
/// A test that needs to make network namespaces and veth pairs (root and iproute2's <c>ip</c>). Where it cannot, the
/// test is reported as skipped with the reason, never as passed.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class NetworkNamespaceFactAttribute : FactAttribute
{
    private static readonly Lazy<string?> Missing = new(Probe);

    public NetworkNamespaceFactAttribute()
    {
        if (Missing.Value is { } reason)
        {
            Skip = $"needs network namespaces: {reason}";
        }
    }

    private static string? Probe()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "not Linux";
        }

        var name = $"berth-probe-{Environment.ProcessId}";
        try
        {
            var (added, error) = Ip.Run($"netns add {name}");
            if (!added)
            {
                return $"`ip netns add` failed ({error.Trim()}); run as root with iproute2 installed";
            }

            Ip.Run($"netns del {name}");
            return null;
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return "`ip` is not installed (apt-get install iproute2)";
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
