using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Berth.Cli.Zmq;

/// <summary>
/// The glibc malloc settings every process of <c>berth zmq bench</c> runs under: the bench process itself (Berth.Zmq and
/// NetMQ) through <c>mallopt</c>, and the C and Net.Zmq programs through <c>GLIBC_TUNABLES</c>, the same two values.
/// libzmq mallocs every frame above 33 B and frees it on another thread; with glibc's defaults, whether a 64 KB frame
/// reuses retained heap or faults fresh pages depends on the process's history (the dynamic mmap threshold, heaps trimmed
/// at 128 KiB), which made runs bimodal. A fixed trim threshold and a fixed mmap threshold remove that history
/// (docs/decisions/zmq-bimodal.md).
/// </summary>
internal static partial class BenchMallocSettings
{
    /// <summary>Free memory kept at the top of a heap before glibc gives it back: far above what the bench keeps in flight per size.</summary>
    private const int TrimThreshold = 256 * 1024 * 1024;

    /// <summary>Blocks from this size on are mmapped: above the largest frame the bench sends (1 MiB), and fixed, so no free moves it.</summary>
    private const int MmapThreshold = 2 * 1024 * 1024;

    private const int MallocTrimThresholdOption = -1;
    private const int MallocMmapThresholdOption = -3;

    private static readonly string Tunables = string.Create(
        CultureInfo.InvariantCulture, $"glibc.malloc.trim_threshold={TrimThreshold}:glibc.malloc.mmap_threshold={MmapThreshold}");

    private static bool s_applied;

    /// <summary>What the report says about the settings.</summary>
    public static string Note => s_applied
        ? $"malloc: {Tunables} in every process (docs/decisions/zmq-bimodal.md)"
        : "malloc: the C library's defaults (no glibc mallopt here)";

    /// <summary>
    /// Sets both thresholds in this process, and from then on in every measured child; where the C library has no
    /// glibc <c>mallopt</c>, every process keeps its defaults.
    /// </summary>
    public static void Apply()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        try
        {
            s_applied = SetOption(MallocTrimThresholdOption, TrimThreshold) == 1 && SetOption(MallocMmapThresholdOption, MmapThreshold) == 1;
        }
        catch (EntryPointNotFoundException)
        {
            s_applied = false;
        }
    }

    /// <summary>Gives a measured child program the settings of this process, after any tunables the caller already set.</summary>
    public static void ApplyTo(ProcessStartInfo start)
    {
        if (!s_applied)
        {
            return;
        }

        var existing = Environment.GetEnvironmentVariable("GLIBC_TUNABLES");
        start.Environment["GLIBC_TUNABLES"] = string.IsNullOrEmpty(existing) ? Tunables : $"{existing}:{Tunables}";
    }

    [LibraryImport("libc", EntryPoint = "mallopt")]
    private static partial int SetOption(int option, int value);
}
