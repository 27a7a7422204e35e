using System.Globalization;
using System.Runtime.InteropServices;

namespace Berth.Cli.Reports;

/// <summary>
/// The machine a report was measured on and how busy it was when the run started: absolute numbers mean nothing
/// without either. The load is the 1-minute load average from /proc/loadavg (Linux), compared with the core count.
/// </summary>
internal sealed record MachineSnapshot(string Description, int Cores, double? LoadAverage, DateTimeOffset Taken)
{
    /// <summary>A load average above this many runnable threads per core means other work competed with the run.</summary>
    public const double BusyLoadPerCore = 0.5;

    public bool WasBusy => LoadAverage / Cores > BusyLoadPerCore;

    public string LoadText => LoadAverage is { } load
        ? string.Create(CultureInfo.InvariantCulture, $"load average {load:0.##} on {Cores} cores at start")
        : "load average unknown";

    /// <param name="extra">Anything else the numbers depend on, such as the libzmq version.</param>
    public static MachineSnapshot Take(string? extra = null)
    {
        var cpu = CpuModel() ?? RuntimeInformation.ProcessArchitecture.ToString();
        var memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024);
        var description = string.Create(
            CultureInfo.InvariantCulture,
            $"{cpu}, {Environment.ProcessorCount} cores, {memory:F0} GiB, {RuntimeInformation.OSDescription}, {RuntimeInformation.FrameworkDescription}");
        return new MachineSnapshot(extra is null ? description : $"{description}, {extra}", Environment.ProcessorCount, LoadAverageNow(), DateTimeOffset.UtcNow);
    }

    private static double? LoadAverageNow()
    {
        try
        {
            var first = File.ReadAllText("/proc/loadavg").Split(' ')[0];
            return double.Parse(first, CultureInfo.InvariantCulture);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }

    private static string? CpuModel()
    {
        const string cpuInfo = "/proc/cpuinfo";
        if (!File.Exists(cpuInfo))
        {
            return null;
        }

        var line = File.ReadLines(cpuInfo).FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
        return line?[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
    }
}
