using System.Net;
using System.Net.Sockets;

namespace Berth.Cli.Balancer;

/// <summary>
/// The real <c>haproxy</c> (Debian's package, <c>bash scripts/setup.sh --balancer</c>) in the foreground, fronting the
/// backends on a free loopback port. Its health-check verdicts are read from its own lines
/// ("Server berth/a is DOWN", "... is UP").
/// </summary>
internal sealed class HaproxyProcess : IAsyncDisposable
{
    private readonly ChildProcess _process;
    private readonly string _directory;

    private HaproxyProcess(ChildProcess process, string directory, int port)
    {
        _process = process;
        _directory = directory;
        Port = port;
    }

    public int Port { get; }

    public ChildProcess Process => _process;

    /// <summary>Writes the configuration, starts haproxy, and returns once its frontend accepts.</summary>
    public static async Task<HaproxyProcess> StartAsync(IReadOnlyList<Backend> backends)
    {
        var port = FreePort();
        var directory = Directory.CreateTempSubdirectory("berth-haproxy-").FullName;
        var config = Path.Combine(directory, "haproxy.cfg");
        await File.WriteAllTextAsync(config, HaproxyConfig.Render(port, backends)).ConfigureAwait(false);
        ChildProcess process;
        try
        {
            process = new ChildProcess("haproxy", ["-db", "-f", config]);
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new IOException("haproxy is not installed (bash scripts/setup.sh --balancer installs it)", e);
        }

        var haproxy = new HaproxyProcess(process, directory, port);
        await haproxy.AcceptingAsync().ConfigureAwait(false);
        return haproxy;
    }

    /// <summary>Waits for haproxy's line saying <paramref name="server"/> went <paramref name="state"/> ("UP" or "DOWN") after line <paramref name="from"/>.</summary>
    public Task<string> ServerWentAsync(string server, string state, int from) =>
        _process.LineAsync(line => line.Contains($"Server {HaproxyConfig.BackendName}/{server} is {state}", StringComparison.Ordinal), from);

    public async ValueTask DisposeAsync()
    {
        await _process.DisposeAsync().ConfigureAwait(false);
        Directory.Delete(_directory, recursive: true);
    }

    /// <summary>
    /// A port free at the moment of asking: haproxy binds it right after. Another process could take it in between;
    /// haproxy then exits saying so, and the run fails with that line rather than hanging.
    /// </summary>
    private static int FreePort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }

    /// <summary>Haproxy prints nothing once it listens, so its readiness is its port taking a connection.</summary>
    private async Task AcceptingAsync()
    {
        for (var attempt = 0; ; attempt++)
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            try
            {
                await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, Port)).ConfigureAwait(false);
                return;
            }
            catch (SocketException) when (attempt < 200)
            {
                if (_process.LineCount > 0 && _process.Output.Contains("ALERT", StringComparison.Ordinal))
                {
                    throw new IOException($"haproxy did not start: {_process.Output}");
                }

                await Task.Delay(50).ConfigureAwait(false);
            }
        }
    }
}
