using System.Globalization;

namespace Berth.Cli.Compare;

/// <summary>The servers the comparison runs, each as its own process.</summary>
internal static class EchoServers
{
    public const string Berth = "Berth";
    /// <summary>The C anchor of a cell: the faster of <see cref="CSleeping"/> and <see cref="CSpinning"/> there.</summary>
    public const string C = "C epoll";
    public const string CSleeping = "C epoll, sleeps";
    public const string CSpinning = "C epoll, spins";
    public const string Kestrel = "Kestrel";
    public const string DotNetty = "DotNetty";
    public const string NetCoreServer = "NetCoreServer";
    public const string SuperSocket = "SuperSocket";

    /// <summary>
    /// <c>berth serve</c> from this very build: the launcher when it runs as one, otherwise <c>dotnet Berth.Cli.dll</c>.
    /// </summary>
    public static EchoServerCommand BerthServe()
    {
        var process = Environment.ProcessPath ?? throw new IOException("cannot tell which executable runs berth");
        return Path.GetFileNameWithoutExtension(process) == "dotnet"
            ? new EchoServerCommand(Berth, process, [Path.Combine(AppContext.BaseDirectory, typeof(EchoServers).Assembly.GetName().Name + ".dll"), "serve"])
            : new EchoServerCommand(Berth, process, ["serve"]);
    }

    /// <summary>
    /// The C epoll echo servers with one event loop per core, their own design at its best: Berth's threads are not
    /// limited either, and on a busy machine a single loop would also get a smaller share of the CPU. One sleeps in
    /// epoll_wait as soon as nothing is ready; the other polls for a bounded time first (docs/decisions/c-echo-anchor.md).
    /// </summary>
    public static IEnumerable<EchoServerCommand> CEchoes(HarnessBuild build)
    {
        string[] arguments = ["--threads", Environment.ProcessorCount.ToString(CultureInfo.InvariantCulture)];
        yield return new(CSleeping, build.EchoServer, arguments);
        yield return new(CSpinning, build.SpinningEchoServer, arguments);
    }

    /// <summary>A .NET echo program the harness built, started with <c>dotnet</c>.</summary>
    public static EchoServerCommand DotNetEcho(string name, string assembly) => new(name, "dotnet", [assembly]);
}
