using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Berth.Benchmarks.Calls;

/// <summary>
/// The server under load, its own process: started from its assembly, its port read from its first line, its CPU time
/// read from <c>/proc/PID/stat</c>, its allocated bytes asked through standard input (AllocatedBytesProbe), and
/// stopped by closing its standard input.
/// </summary>
internal sealed partial class ServerProcess : IDisposable
{
    private const int ClockTicksName = 2; // _SC_CLK_TCK
    private static readonly double ClockTicksPerSecond = Math.Max(1, Sysconf(ClockTicksName));

    private readonly Process _process;

    private ServerProcess(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    public static ServerProcess Start(string assembly)
    {
        var start = new ProcessStartInfo("dotnet", [assembly])
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {assembly}");
        const string prefix = "listening on 127.0.0.1:";
        var line = process.StandardOutput.ReadLine();
        if (line is null || !line.StartsWith(prefix, StringComparison.Ordinal))
        {
            process.Kill();
            throw new InvalidOperationException($"{assembly} did not say where it listens (first line: {line ?? "none"})");
        }

        return new ServerProcess(process, int.Parse(line.AsSpan(prefix.Length), CultureInfo.InvariantCulture));
    }

    /// <summary>User plus system CPU time the server has used so far (utime + stime).</summary>
    public double CpuSeconds()
    {
        var stat = File.ReadAllText($"/proc/{_process.Id}/stat");
        // The command name is in parentheses and may hold spaces; the fields after it start with the state (field 3).
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        var ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
        return ticks / ClockTicksPerSecond;
    }

    /// <summary>The server's GC.GetTotalAllocatedBytes(precise) at this moment.</summary>
    public long AllocatedBytes()
    {
        _process.StandardInput.Write('?');
        _process.StandardInput.Flush();
        var line = _process.StandardOutput.ReadLine() ?? throw new InvalidOperationException("the server exited");
        return long.Parse(line, CultureInfo.InvariantCulture);
    }

    public void Dispose()
    {
        _process.StandardInput.Close();
        // A hang guard, not a timing: a server that does not exit on its own is killed.
        if (!_process.WaitForExit(TimeSpan.FromSeconds(30)))
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
    }

    [LibraryImport("libc", EntryPoint = "sysconf")]
    private static partial long Sysconf(int name);
}
