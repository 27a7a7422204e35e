using System.Diagnostics;
using System.Globalization;
using System.Text;
using Berth.Cli.Compare;
using Berth.Results;

namespace Berth.Cli.Aot;

/// <summary>
/// <c>berth aot-vs-jit</c>: every build's <c>berth serve</c> started afresh in every round, in an order that rotates
/// from round to round so no build always goes first; each start is timed to its listening line, left idle, its RSS
/// read, then loaded with the C load generator of the comparison, and stopped. Every NativeAOT build is started
/// together with a JIT build for its msg/s ratio: with both up, the load alternates between them in short segments.
/// </summary>
/// <remarks>
/// A round of seven builds takes most of a minute, and this machine's rate can shift by a fifth within that: a ratio
/// between runs half a round apart then measured the shift, not the builds, and even back-to-back runs of a few
/// seconds each took a shift between them whole (docs/RESULTS.md, "How far a round moves on its own"). Segments of a
/// second, NativeAOT, JIT, JIT, NativeAOT (the mirror by turns), let both builds share each shift. Start and RSS do not
/// move with the machine's rate, so they keep one run per build per round.
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
                if (build.IsNative)
                {
                    var anchorFirst = (round + turn) % 2 == 1;
                    samples.AddRange(await MeasurePairAsync(build, settings.ThroughputAnchor, anchorFirst, round, settings, load, cancellationToken));
                }
                else
                {
                    samples.Add(await MeasureAsync(build, round, settings, load, cancellationToken));
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
        AotBuild build, int round, AotVsJitSettings settings, LoadGenerator load, CancellationToken cancellationToken)
    {
        var started = await StartedServer.StartAsync(build, settings, cancellationToken);
        await using var server = started.Server;
        var rate = new SegmentRates(build);
        try
        {
            rate.Add(await load.RunAsync(Cell, server.Port, settings.Warmup, settings.Duration, () => { }, () => { }, cancellationToken));
        }
        catch (IOException e)
        {
            rate.Failed(e);
        }

        return Report(started.Sample(round, rate, pairedWith: null), settings);
    }

    /// <summary>
    /// Starts <paramref name="native"/> and then <paramref name="anchor"/>, each timed and its idle RSS read, warms each
    /// up, then alternates the load between them (<see cref="AlternatingSegments"/>); each build's msg/s is the mean of
    /// its segments'. The anchor's sample names the NativeAOT build it was paired with.
    /// </summary>
    private static async Task<AotVsJitSample[]> MeasurePairAsync(
        AotBuild native, AotBuild anchor, bool anchorFirst, int round, AotVsJitSettings settings, LoadGenerator load, CancellationToken cancellationToken)
    {
        var first = await StartedServer.StartAsync(native, settings, cancellationToken);
        await using var nativeServer = first.Server;
        var second = await StartedServer.StartAsync(anchor, settings, cancellationToken);
        await using var anchorServer = second.Server;
        var (nativeRate, anchorRate) = (new SegmentRates(native), new SegmentRates(anchor));
        try
        {
            foreach (var server in new[] { nativeServer, anchorServer })
            {
                await load.RunAsync(Cell, server.Port, TimeSpan.Zero, settings.Warmup, () => { }, () => { }, cancellationToken);
            }

            for (var segment = 0; segment < AlternatingSegments.Count; segment++)
            {
                foreach (var (server, rate) in AlternatingSegments.Order((nativeServer, nativeRate), (anchorServer, anchorRate), segment, mirrored: anchorFirst))
                {
                    rate.Add(await load.RunAsync(
                        Cell, server.Port, AlternatingSegments.Ramp, settings.Duration / AlternatingSegments.Count, () => { }, () => { }, cancellationToken));
                }
            }
        }
        catch (IOException e)
        {
            // Which server stopped answering is not known, so the NativeAOT build's run counts as failed (against it).
            nativeRate.Failed(e);
        }

        return
        [
            Report(first.Sample(round, nativeRate, pairedWith: null), settings),
            Report(second.Sample(round, anchorRate, pairedWith: native.Name), settings),
        ];
    }

    private static AotVsJitSample Report(AotVsJitSample sample, AotVsJitSettings settings)
    {
        var role = sample.PairedWith is null ? sample.Build : $"{sample.Build} (next to {sample.PairedWith})";
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"  round {sample.Round + 1}/{settings.Rounds} {role,-16} listening after {sample.ListeningMilliseconds,8:0.0} ms  idle RSS {sample.IdleResidentBytes / 1048576,7:0.0} MiB  {sample.MessagesPerSecond,12:N0} msg/s  errors {sample.Errors}"));
        return sample;
    }

    /// <summary>A build's server started afresh: the time to its listening line and its RSS after sitting idle.</summary>
    private sealed record StartedServer(AotBuild Build, ServerProcess Server, double ListeningMilliseconds, double IdleResidentBytes)
    {
        public static async Task<StartedServer> StartAsync(AotBuild build, AotVsJitSettings settings, CancellationToken cancellationToken)
        {
            var clock = Stopwatch.StartNew();
            var server = await ServerProcess.StartAsync(Serve(build), cancellationToken);
            var listening = clock.Elapsed.TotalMilliseconds;
            await Task.Delay(settings.IdleSettle, cancellationToken);
            return new StartedServer(build, server, listening, server.ResidentBytes);
        }

        public AotVsJitSample Sample(int round, SegmentRates rate, string? pairedWith) =>
            new(Build.Name, round, ListeningMilliseconds, IdleResidentBytes, rate.MessagesPerSecond, rate.Errors, pairedWith);
    }

    /// <summary>The load runs of one build in one round: its msg/s is their mean, NaN once any failed.</summary>
    private sealed class SegmentRates(AotBuild build)
    {
        private readonly List<double> _rates = [];
        private bool _failed;

        public long Errors { get; private set; }

        public double MessagesPerSecond => _failed || _rates.Count == 0 ? double.NaN : _rates.Average();

        public void Add(LoadOutcome outcome)
        {
            _rates.Add(outcome.MessagesPerSecond);
            Errors += outcome.Errors;
        }

        /// <summary>A server that stopped answering is a result: the run counts as failed and the comparison goes on.</summary>
        public void Failed(IOException e)
        {
            Console.WriteLine($"  {build.Name}: {e.Message}");
            _failed = true;
            Errors = Math.Max(Errors, 1);
        }
    }
}
