using System.Globalization;
using System.Runtime.InteropServices;

namespace Berth.Results;

/// <summary>The machine a run was measured on, in one line: CPU model, cores, memory, operating system, .NET runtime.</summary>
internal static class MachineDescription
{
    /// <param name="extra">Anything else the numbers depend on, such as the libzmq version.</param>
    public static string Current(string? extra = null)
    {
        var cpu = CpuModel() ?? RuntimeInformation.ProcessArchitecture.ToString();
        var memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024);
        var description = string.Create(
            CultureInfo.InvariantCulture,
            $"{cpu}, {Environment.ProcessorCount} cores, {memory:F0} GiB, {RuntimeInformation.OSDescription}, {RuntimeInformation.FrameworkDescription}");
        return extra is null ? description : $"{description}, {extra}";
    }

    /// <summary>The three load averages of /proc/loadavg, or null where there is none.</summary>
    public static double[]? LoadAverages()
    {
        try
        {
            return File.ReadAllText("/proc/loadavg").Split(' ').Take(3).Select(v => double.Parse(v, CultureInfo.InvariantCulture)).ToArray();
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
