using System.Globalization;

namespace Berth.Cli.Zmq;

/// <summary>
/// <c>berth zmq cell</c>: one Berth.Zmq throughput cell of <c>berth zmq bench</c>, the same run round after round in one
/// process, each round's rate printed as it ends. It is the target a profiler attaches to once the JIT has settled
/// (bench/profile-zmq-small.sh); the comparison with C and the verdicts stay with <c>berth zmq bench</c>.
/// </summary>
internal static class ZmqCell
{
    public static int Run(ZmqCellSettings settings)
    {
        BenchMallocSettings.Apply();
        var warmUp = Math.Min(settings.Count, Math.Max(3_000, settings.Count / 10));
        for (var round = 1; round <= settings.Rounds; round++)
        {
            var result = ThroughputRun.Measure(settings.Pattern, settings.Strategy, settings.Size, settings.Count, warmUp);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"round={round} msgs_per_sec={result.MessagesPerSecond:F0} alloc_per_msg={result.AllocatedBytesPerMessage:F3}"));
            Console.Out.Flush();
        }

        return ExitCode.Done;
    }
}
