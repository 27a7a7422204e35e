using System.Runtime.InteropServices;

namespace Berth.Cli.Reports;

/// <summary>One line naming the machine a table was measured on: absolute numbers mean nothing without it.</summary>
internal static class MachineDescription
{
    public static string Current { get; } = Describe();

    private static string Describe()
    {
        var cpu = CpuModel() ?? RuntimeInformation.ProcessArchitecture.ToString();
        var memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024.0 * 1024 * 1024);
        return $"{cpu}, {Environment.ProcessorCount} cores, {memory:F0} GiB, {RuntimeInformation.OSDescription}, {RuntimeInformation.FrameworkDescription}";
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
