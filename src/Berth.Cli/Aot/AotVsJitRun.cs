using System.Diagnostics;
using System.Globalization;
using System.Text;
using Berth.Cli.Compare;
using Berth.Results;

namespace Berth.Cli.Aot;

/// <summary>
/// <c>berth aot-vs-jit</c>: every build's <c>berth serve</c> started afresh in every round, in an order that rotates
/// from round to round so no build always goes first; each start is timed to its listening line, left idle, its RSS
/// read, then loaded with the C load generator of the comparison, and stopped. Every NativeAOT run also gets a run of
/// the JIT build right next to it, before or after it by turns, for its msg/s ratio.
/// </summary>
/// <remarks>
/// A round of seven builds takes most of a minute, and this machine's rate can shift by a fifth within that: a ratio
/// between runs half a round apart then measured the shift, not the builds. Start and RSS do not move with the
/// machine's rate, so they keep one run per build per round.
/// </remarks>
internal static class AotVsJitRun
{
    /// <summary>The standard load: 64 B bodies over 100 connections, pipelined as in the comparison.</summary>
    public static readonly CompareCell Cell = CompareCell.Pipelined(64, 100);

    public static async Task<int> RunAsync(AotVsJitSettings settings, CancellationToken cancellationToken)
    {
        var root = SourceCheckout.FindRoot();
        if (HarnessBuild.FindCompiler() is null)
        {
            throw new IOException("gcc not found, so the C load generator cannot be built (bash scripts/setup.sh installs gcc)");
        }

        var harness = new HarnessBuild(root);
        Console.WriteLine($"building the C load generator into {Path.Combine(root, "artifacts", "compare")}");
        await harness.BuildNativeAsync(cancellationToken);
        var load = new LoadGenerator(harness.LoadGenerator);
        var conditions = RunConditions.Start(settings.Command);

        // One unmeasured start of every build, so that every measured start finds its files in the page cache.
        foreach (var build in settings.Builds)
        {
            await using var _ = await ServerProcess.StartAsync(Serve(build), cancellationToken);
        }

        var samples = new List<AotVsJitSample>();
        var builds = settings.Builds.Count;
        for (var round = 0; round < settings.Rounds; round++)
        {
            for (var turn = 0; turn < builds; turn++)
            {
                var build = settings.Builds[(round + turn) % builds];
                var anchorFirst = (round + turn) % 2 == 1;
                if (build.IsNative && anchorFirst)
                {
                    samples.Add(await MeasureAsync(settings.ThroughputAnchor, round, settings, load, build.Name, cancellationToken));
                }

                samples.Add(await MeasureAsync(build, round, settings, load, pairedWith: null, cancellationToken));
                if (build.IsNative && !anchorFirst)
                {
                    samples.Add(await MeasureAsync(settings.ThroughputAnchor, round, settings, load, build.Name, cancellationToken));
                }
            }
        }

        var file = AotVsJitResult.Build(conditions.Finish(), settings, samples);
        var text = new StringBuilder();
        foreach (var table in file.Tables)
        {
            text.AppendLine();
            MarkdownTable.Render(text, table);
        }

        Console.Write(text);
        if (settings.DataPath is not null)
        {
            ResultFileWriter.Write(settings.DataPath, file);
            Console.WriteLine($"data: {settings.DataPath}");
        }

        return samples.Any(s => s.Errors > 0) ? ExitCode.Failed : ExitCode.Done;
    }

    private static EchoServerCommand Serve(AotBuild build) => new(build.Name, build.Executable, ["serve"]);

    private static async Task<AotVsJitSample> MeasureAsync(
        AotBuild build, int round, AotVsJitSettings settings, LoadGenerator load, string? pairedWith, CancellationToken cancellationToken)
    {
        var sample = await RunOnceAsync(build, round, settings, load, pairedWith, cancellationToken);
        var role = pairedWith is null ? build.Name : $"{build.Name} (next to {pairedWith})";
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"  round {round + 1}/{settings.Rounds} {role,-16} listening after {sample.ListeningMilliseconds,8:0.0} ms  idle RSS {sample.IdleResidentBytes / 1048576,7:0.0} MiB  {sample.MessagesPerSecond,12:N0} msg/s  errors {sample.Errors}"));
        return sample;
    }

    private static async Task<AotVsJitSample> RunOnceAsync(
        AotBuild build, int round, AotVsJitSettings settings, LoadGenerator load, string? pairedWith, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        await using var server = await ServerProcess.StartAsync(Serve(build), cancellationToken);
        var listening = clock.Elapsed.TotalMilliseconds;
        await Task.Delay(settings.IdleSettle, cancellationToken);
        var idle = server.ResidentBytes;
        try
        {
            var outcome = await load.RunAsync(Cell, server.Port, settings.Warmup, settings.Duration, () => { }, () => { }, cancellationToken);
            return new AotVsJitSample(build.Name, round, listening, idle, outcome.MessagesPerSecond, outcome.Errors, pairedWith);
        }
        catch (IOException e)
        {
            // A server that stopped answering is a result: the run counts as failed and the comparison goes on.
            Console.WriteLine($"  {build.Name}: {e.Message}");
            return new AotVsJitSample(build.Name, round, listening, idle, double.NaN, 1, pairedWith);
        }
    }
}
