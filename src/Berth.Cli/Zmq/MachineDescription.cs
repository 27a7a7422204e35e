using System.Runtime.InteropServices;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>One line naming the machine, runtime and libzmq, printed beside every table (absolute numbers only mean something there).</summary>
internal static class MachineDescription
{
    public static string Describe()
    {
        var cpu = "unknown CPU";
        if (File.Exists("/proc/cpuinfo"))
        {
            var model = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
            if (model is not null)
            {
                cpu = model[(model.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
            }
        }

        return $"{cpu}, {Environment.ProcessorCount} cores, {RuntimeInformation.OSDescription}, .NET {Environment.Version}, libzmq {ZmqLibrary.Version}";
    }
}
