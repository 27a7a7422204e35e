using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Net;
using Microsoft.Diagnostics.NETCore.Client;

namespace Berth.Tests.Tcp.Hostile;

/// <summary><c>berth serve</c> as a process of its own, so its resident memory is its own and not the test runner's.</summary>
internal sealed class ServeProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ServeProcess(Process process, IPEndPoint endPoint)
    {
        _process = process;
        EndPoint = endPoint;
    }

    public IPEndPoint EndPoint { get; }

    /// <summary>Resident memory in bytes, as the kernel counts it for the process (VmRSS).</summary>
    public long ResidentBytes
    {
        get
        {
            var line = File.ReadLines($"/proc/{_process.Id}/status").First(l => l.StartsWith("VmRSS:", StringComparison.Ordinal));
            return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) * 1024;
        }
    }

    public static async Task<ServeProcess> StartAsync(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "Berth.Cli.dll"));
        start.ArgumentList.Add("serve");
        start.ArgumentList.Add("--port");
        start.ArgumentList.Add("0");
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        try
        {
            var line = await process.StandardOutput.ReadLineAsync().Within() ?? "";
            var port = int.Parse(line[(line.LastIndexOf(':') + 1)..], CultureInfo.InvariantCulture);
            return new ServeProcess(process, new IPEndPoint(IPAddress.Loopback, port));
        }
        catch
        {
            process.Kill();
            process.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Has the server run a full blocking collection, through the runtime's diagnostic port as <c>dotnet-gcdump</c> does
    /// (enabling the runtime provider's GC-heap-collect keyword induces one). Without it, what a round of churn left as
    /// garbage stays resident until the collector's own budget calls for a full collection, which may or may not fall
    /// between two readings; after it, resident memory is what the server still holds.
    /// </summary>
    public void CollectGarbage()
    {
        const long gcHeapCollect = 0x800000;
        var provider = new EventPipeProvider("Microsoft-Windows-DotNETRuntime", EventLevel.Informational, gcHeapCollect);
        using var session = new DiagnosticsClient(_process.Id).StartEventPipeSession(provider, requestRundown: false);
        session.Stop();
    }

    /// <summary>
    /// Waits two eviction intervals of the default pool (5 s each), so what a burst left in it is released, has the
    /// server run a full collection (<see cref="CollectGarbage"/>), then waits until resident memory stops changing
    /// (three readings a second apart within 1 %), at most 30 readings.
    /// </summary>
    public async Task<long> SettledResidentBytesAsync()
    {
        await Task.Delay(TimeSpan.FromSeconds(11));
        CollectGarbage();
        var previous = ResidentBytes;
        var steady = 0;
        for (var reading = 0; reading < 30 && steady < 3; reading++)
        {
            await Task.Delay(1000);
            var current = ResidentBytes;
            steady = Math.Abs(current - previous) <= previous / 100 ? steady + 1 : 0;
            previous = current;
        }

        return previous;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync().Within();
        }

        _process.Dispose();
    }
}
