using System.Globalization;
using System.Net;

namespace Berth.Cli.Balancer;

/// <summary>
/// One <c>berth serve</c> behind the balancer: PROXY v2 from the balancer's address only, a health port, a drain delay,
/// and a line per connection. Restarted on the same two ports, so the balancer's configuration stays as it is.
/// </summary>
internal sealed class Backend : IAsyncDisposable
{
    private readonly TimeSpan _drainDelay;

    private Backend(string name, TimeSpan drainDelay, ChildProcess process, int port, int healthPort)
    {
        Name = name;
        _drainDelay = drainDelay;
        Process = process;
        Port = port;
        HealthPort = healthPort;
    }

    /// <summary>The server's name in the balancer's configuration.</summary>
    public string Name { get; }

    public ChildProcess Process { get; private set; }

    public int Port { get; }

    public int HealthPort { get; }

    /// <summary>Starts a backend on free ports and waits until it listens on both.</summary>
    public static async Task<Backend> StartAsync(string name, TimeSpan drainDelay)
    {
        var process = Launch(0, 0, drainDelay);
        var port = PortOf(await process.LineStartingWithAsync("listening on ").ConfigureAwait(false));
        var healthPort = PortOf(await process.LineStartingWithAsync("health on ").ConfigureAwait(false));
        return new Backend(name, drainDelay, process, port, healthPort);
    }

    /// <summary>SIGTERM: the backend drains and stops; returns its exit code and everything it printed.</summary>
    public async Task<(int ExitCode, string Output)> StopAsync()
    {
        Process.Signal("TERM");
        var exitCode = await Process.ExitedAsync().ConfigureAwait(false);
        return (exitCode, Process.Output);
    }

    /// <summary>Starts a new process on the same ports once the last one exited, and waits until it listens.</summary>
    public async Task RestartAsync()
    {
        await Process.DisposeAsync().ConfigureAwait(false);
        Process = Launch(Port, HealthPort, _drainDelay);
        await Process.LineStartingWithAsync("health on ").ConfigureAwait(false);
    }

    /// <summary>Whether this backend printed that it opened a connection from <paramref name="peer"/>.</summary>
    public Task<string> ConnectionFromAsync(IPEndPoint peer) => Process.LineAsync(line => line.EndsWith($" from {peer}", StringComparison.Ordinal));

    public ValueTask DisposeAsync() => Process.DisposeAsync();

    private static ChildProcess Launch(int port, int healthPort, TimeSpan drainDelay) => BerthExecutable.Start(
    [
        "serve", "--host", "127.0.0.1", "--port", Text(port), "--health-port", Text(healthPort),
        "--drain-delay", drainDelay.TotalSeconds.ToString(CultureInfo.InvariantCulture),
        "--proxy-protocol", "--trusted-proxy", "127.0.0.1/32", "--log-connections",
    ]);

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);

    private static int PortOf(string line) => int.Parse(line[(line.LastIndexOf(':') + 1)..], CultureInfo.InvariantCulture);
}
