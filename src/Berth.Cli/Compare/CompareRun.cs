using System.Globalization;
using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>
/// <c>berth bench --compare</c>: Berth, the C epoll echo and a Kestrel framed echo, each its own process, driven by
/// the same C load generator for every cell, with server CPU per message, memory per idle connection, ratios and
/// target marks. Builds what it needs from the source checkout it runs in.
/// </summary>
internal static class CompareRun
{
    private static readonly int[] Sizes = [64, 1024, 65536];
    private static readonly int[] ConnectionCounts = [1, 100];
    private static readonly int[] IdleConnectionCounts = [1_000, 10_000];
    private const int QuickIdleConnections = 100;

    /// <summary>
    /// Runs the comparison and writes <c>compare.json</c> and <c>compare.html</c> into the report folder. Returns the exit
    /// code (non-zero when any run saw an error), or null when gcc is missing: it has said so, and the caller runs Berth alone.
    /// </summary>
    public static async Task<int?> RunAsync(CompareSettings settings, CancellationToken cancellationToken)
    {
        var root = SourceCheckout.FindRoot();
        if (HarnessBuild.FindCompiler() is null)
        {
            Console.WriteLine("berth bench --compare: gcc not found, so the C echo server and load generator cannot be built (bash scripts/setup.sh installs gcc); running Berth alone");
            return null;
        }

        var build = new HarnessBuild(root);
        Console.WriteLine($"building the C echo server, the C load generator and the Kestrel echo into {Path.Combine(root, "artifacts", "compare")}");
        await build.BuildNativeAsync(cancellationToken);
        List<EchoServerCommand> servers = [EchoServers.BerthServe(), EchoServers.CEcho(build)];
        try
        {
            await build.BuildKestrelEchoAsync(cancellationToken);
            servers.Add(EchoServers.KestrelEcho(build));
        }
        catch (IOException e)
        {
            Console.WriteLine($"the Kestrel echo did not build, so it is left out: {e.Message}");
        }

        var cells = settings.Quick
            ? [CompareCell.Pipelined(64, 100)]
            : Sizes.SelectMany(size => ConnectionCounts.Select(connections => CompareCell.Pipelined(size, connections))).ToList();
        var idleCounts = settings.Quick ? [QuickIdleConnections] : IdleConnectionCounts;
        var conditions = RunConditions.Start(settings.Command);
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"{cells.Count} cells × {servers.Count} servers × {settings.Repeat} runs of {settings.Warmup.TotalSeconds:0.#} s warm-up + {settings.Duration.TotalSeconds:0.#} s, then idle memory at {string.Join(" and ", idleCounts.Select(c => c.ToString("N0", CultureInfo.InvariantCulture)))} connections"));

        var load = new LoadGenerator(build.LoadGenerator);
        var samples = await new ThroughputRuns(load, settings.Warmup, settings.Duration).RunAsync(servers, cells, settings.Repeat, cancellationToken);
        var idleSamples = await new IdleMemoryRuns(load).RunAsync(servers, idleCounts, settings.Repeat, cancellationToken);

        var report = CompareSummary.Build(
            conditions.Finish(),
            Conditions(settings),
            settings.Repeat,
            [.. servers.Select(s => s.Name)],
            cells,
            samples,
            idleSamples);
        var tables = CompareTables.Build(report);
        Console.WriteLine();
        CompareTextWriter.Write(Console.Out, report, tables);
        Directory.CreateDirectory(settings.OutDirectory);
        CompareJsonWriter.Write(Path.Combine(settings.OutDirectory, "compare.json"), report);
        if (settings.DataPath is not null)
        {
            CompareJsonWriter.Write(settings.DataPath, report);
            Console.WriteLine($"data: {settings.DataPath}");
        }

        var page = Path.GetFullPath(Path.Combine(settings.OutDirectory, "compare.html"));
        CompareHtmlWriter.Write(page, report, tables);
        Console.WriteLine($"report: {page}");

        var errors = samples.Sum(s => s.Outcome.Errors) + idleSamples.Sum(s => s.Errors);
        return errors == 0 ? 0 : 1;
    }

    private static string Conditions(CompareSettings settings) => string.Create(
        CultureInfo.InvariantCulture,
        $"Each server is its own process on 127.0.0.1 (Berth: berth serve with its defaults; C: one epoll thread per core; Kestrel: a "
        + $"ConnectionHandler with the Web SDK's defaults), driven by the C load generator (one epoll thread, every echo "
        + $"checked byte for byte). {settings.Repeat} run(s) per cell, servers interleaved, {settings.Warmup.TotalSeconds:0.#} s "
        + $"warm-up + {settings.Duration.TotalSeconds:0.#} s measured; server CPU is utime+stime over the measured window; idle "
        + $"memory is a fresh server's VmRSS growth after one round trip per connection. A target is met only when every run meets "
        + $"it (the runs' ranges do not overlap the target), within noise when the ranges straddle it.");
}
