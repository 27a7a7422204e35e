namespace Berth.Cli.Zmq;

/// <summary>
/// Net.Zmq in <c>berth zmq bench</c>: bench/peers/NetZmqPerf, Berth's program of the same workloads written against
/// Net.Zmq's API, built by bench/peers/build-netzmq.sh from the Net.Zmq source folder given with <c>--netzmq</c> (Net.Zmq's
/// sources are never part of this repository) and run as a child process like the C programs.
/// </summary>
internal sealed class NetZmqPeer
{
    /// <summary>The row of the latency table, and the anchor name of the throughput tables (the faster strategy per round).</summary>
    public const string Name = "Net.Zmq";

    /// <summary>Net.Zmq's two fastest send strategies by its own benchmarks: a Message sent without a copy, and a reused span.</summary>
    public static readonly string[] Strategies = ["message", "span"];
    private const string InstallHint = "bench/peers/build-netzmq.sh builds it from a Net.Zmq checkout";
    private readonly string _program;

    private NetZmqPeer(string program) => _program = program;

    public static NetZmqPeer Build(string source)
    {
        var peers = NativeZmqPrograms.FindRepositoryFolder(Path.Combine("bench", "peers"), "build-netzmq.sh")
            ?? throw new InvalidOperationException("bench/peers not found: run 'berth zmq bench --netzmq' from inside the Berth repository");
        var (exit, output, error) = ChildProgram.Execute("bash", [Path.Combine(peers, "build-netzmq.sh"), source], "bash and the .NET SDK are needed");
        if (exit != 0)
        {
            throw new InvalidOperationException($"bench/peers/build-netzmq.sh {source} failed: {LastLine(error)}");
        }

        return new NetZmqPeer(Path.Combine(output.Trim(), "NetZmqPerf"));
    }

    /// <summary>
    /// Runs one workload (<c>push_pull_thr</c> or <c>router_dealer_thr</c> with a strategy and a warm-up of uncounted
    /// messages, or <c>req_rep_lat</c>) and returns its <c>key=value</c> output.
    /// </summary>
    public IReadOnlyDictionary<string, double> Run(string workload, int size, int count, (string Strategy, int WarmUp)? throughput = null) =>
        ChildProgram.RunForValues(
            _program,
            [workload, .. ChildProgram.SizeAndCount(size, count), .. throughput is { } t ? [t.Strategy, t.WarmUp.ToString(System.Globalization.CultureInfo.InvariantCulture)] : Array.Empty<string>()],
            InstallHint);

    private static string LastLine(string text) =>
        text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault(l => l.Contains("error", StringComparison.OrdinalIgnoreCase)) ?? ChildProgram.FirstLine(text);
}
