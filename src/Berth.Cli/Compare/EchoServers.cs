using System.Globalization;

namespace Berth.Cli.Compare;

/// <summary>The servers the comparison runs, each as its own process.</summary>
internal static class EchoServers
{
    public const string Berth = "Berth";
    public const string C = "C epoll";
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
    /// The C epoll echo server with one event loop per core, its own design at its best: Berth's threads are not
    /// limited either, and on a busy machine a single loop would also get a smaller share of the CPU.
    /// </summary>
    public static EchoServerCommand CEcho(HarnessBuild build) =>
        new(C, build.EchoServer, ["--threads", Environment.ProcessorCount.ToString(CultureInfo.InvariantCulture)]);

    /// <summary>A .NET echo program the harness built, started with <c>dotnet</c>.</summary>
    public static EchoServerCommand DotNetEcho(string name, string assembly) => new(name, "dotnet", [assembly]);
}
