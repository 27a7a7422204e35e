using System.Globalization;
using Berth.Results;

namespace Berth.Cli.Compare;

/// <summary>
/// <c>berth bench --compare</c>: Berth, the C epoll echo, Kestrel and DotNetty framed echoes, and NetCoreServer and
/// SuperSocket ones when their source folders are given, each its own process, driven by
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
        Console.WriteLine($"building the C echo server, the C load generator and the .NET echoes into {Path.Combine(root, "artifacts", "compare")}");
        await build.BuildNativeAsync(cancellationToken);
        List<EchoServerCommand> servers = [EchoServers.BerthServe(), .. EchoServers.CEchoes(build)];
        List<ServerNotRun> notRun = [];
        await AddBuiltAsync(servers, notRun, EchoServers.Kestrel, () => build.BuildBenchProjectAsync("Berth.KestrelEcho", cancellationToken));
        await AddBuiltAsync(servers, notRun, EchoServers.DotNetty, () => build.BuildBenchProjectAsync("Berth.DotNettyEcho", cancellationToken));
        await AddPeerAsync(servers, notRun, EchoServers.NetCoreServer, settings.NetCoreServerSource, "--netcoreserver", source =>
            build.BuildPeerAsync("build-netcoreserver.sh", "Berth.NetCoreServerEcho", source, cancellationToken));
        await AddPeerAsync(servers, notRun, EchoServers.SuperSocket, settings.SuperSocketSource, "--supersocket", source =>
            build.BuildPeerAsync("build-supersocket.sh", "Berth.SuperSocketEcho", source, cancellationToken));

        var cells = settings.Quick
            ? [CompareCell.Pipelined(64, 100)]
            : Sizes.SelectMany(size => ConnectionCounts.Select(connections => CompareCell.Pipelined(size, connections))).ToList();
        var idleCounts = settings.Quick ? [QuickIdleConnections] : IdleConnectionCounts;
        var conditions = RunConditions.Start(settings.Command);
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"{cells.Count} cells × {servers.Count - 1} pairs with Berth × {settings.Repeat} rounds of {settings.Warmup.TotalSeconds:0.#} s warm-up + {settings.Duration.TotalSeconds:0.#} s, then idle memory at {string.Join(" and ", idleCounts.Select(c => c.ToString("N0", CultureInfo.InvariantCulture)))} connections"));

        var load = new LoadGenerator(build.LoadGenerator);
        var runs = await new ThroughputRuns(load, settings.Warmup, settings.Duration).RunAsync(servers, cells, settings.Repeat, cancellationToken);
        var samples = FasterCEcho.Relabel(runs, cells, out var cChoices);
        // The two C echoes hold the same memory per connection; the sleeping one stands for C there.
        var idleServers = servers
            .Where(s => s.Name != EchoServers.CSpinning)
            .Select(s => s.Name == EchoServers.CSleeping ? s with { Name = EchoServers.C } : s)
            .ToList();
        var idleSamples = await new IdleMemoryRuns(load).RunAsync(idleServers, idleCounts, settings.Repeat, cancellationToken);

        var report = CompareSummary.Build(
            conditions.Finish(),
            Conditions(settings) + $" C per cell: {cChoices}.",
            settings.Repeat,
            [servers[0].Name, EchoServers.C, .. servers.Skip(1).Select(s => s.Name)],
            cells,
            samples,
            idleSamples,
            notRun);
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

    /// <summary>Builds a .NET echo and adds it; one that does not build is left out, and the report says why.</summary>
    private static async Task AddBuiltAsync(List<EchoServerCommand> servers, List<ServerNotRun> notRun, string name, Func<Task<string>> build)
    {
        try
        {
            servers.Add(EchoServers.DotNetEcho(name, await build()));
        }
        catch (IOException e)
        {
            Console.WriteLine($"the {name} echo did not build, so it is left out: {e.Message}");
            notRun.Add(new ServerNotRun(name, $"did not build: {e.Message}"));
        }
    }

    private static Task AddPeerAsync(
        List<EchoServerCommand> servers, List<ServerNotRun> notRun, string name, string source, string option, Func<string, Task<string>> build)
    {
        if (source.Length == 0)
        {
            notRun.Add(new ServerNotRun(name, $"source not given ({option} DIR)"));
            return Task.CompletedTask;
        }

        return AddBuiltAsync(servers, notRun, name, () => build(source));
    }

    private static string Conditions(CompareSettings settings) => string.Create(
        CultureInfo.InvariantCulture,
        $"Each server is its own process on 127.0.0.1 (Berth: berth serve with its defaults; C: the faster in that cell of two "
        + $"C echoes with one epoll thread per core, one that sleeps in epoll_wait when nothing is ready and one that polls for up to 50 µs "
        + $"first, whose CPU per message includes that polling; Kestrel: a "
        + $"ConnectionHandler with the Web SDK's defaults; DotNetty, NetCoreServer, SuperSocket: framed echoes as their documentation "
        + $"writes them, Nagle off, the runtime's default GC as their samples run), driven by the C load generator (one epoll thread, every echo "
        + $"checked byte for byte). {settings.Repeat} round(s) per cell, each pairing Berth with every other server in turn: the load alternates between "
        + $"the two, Berth, other, other, Berth (the mirror in odd rounds), {AlternatingSegments.Count} segments each of "
        + $"{(settings.Duration / AlternatingSegments.Count).TotalSeconds:0.##} s measured after a ramp ({settings.Warmup.TotalSeconds:0.#} s for a "
        + $"server's first segment in the pair, {AlternatingSegments.Ramp.TotalSeconds:0.##} s after), so a server's msg/s and server CPU per "
        + $"message (utime+stime) are over its {settings.Duration.TotalSeconds:0.#} s of measured windows, and each latency percentile is the "
        + $"highest of its segments'; idle memory is a fresh server's VmRSS growth after one round trip per connection. A ratio target is judged on the median "
        + $"of the rounds' ratios, with at least {CompareTargets.MinimumRounds} rounds; the idle target is met only when every run meets it.");
}
