using System.Reflection;

namespace Berth.Cli.Compare;

/// <summary>The three servers the comparison runs, each as its own process.</summary>
internal static class EchoServers
{
    public const string Berth = "Berth";
    public const string C = "C epoll";
    public const string Kestrel = "Kestrel";

    /// <summary>
    /// <c>berth serve</c> from this very build: the launcher when it runs as one, otherwise <c>dotnet Berth.Cli.dll</c>.
    /// </summary>
    public static EchoServerCommand BerthServe()
    {
        var process = Environment.ProcessPath ?? throw new IOException("cannot tell which executable runs berth");
        return Path.GetFileNameWithoutExtension(process) == "dotnet"
            ? new EchoServerCommand(Berth, process, [Assembly.GetExecutingAssembly().Location, "serve"])
            : new EchoServerCommand(Berth, process, ["serve"]);
    }

    /// <summary>The C epoll echo server with one event loop thread, the same as the load generator.</summary>
    public static EchoServerCommand CEcho(HarnessBuild build) => new(C, build.EchoServer, ["--threads", "1"]);

    public static EchoServerCommand KestrelEcho(HarnessBuild build) => new(Kestrel, "dotnet", [build.KestrelEcho]);
}
