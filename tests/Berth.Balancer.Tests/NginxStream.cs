using System.Net;
using System.Net.Sockets;
using Berth.Cli.Balancer;

namespace Berth.Balancer.Tests;

/// <summary>
/// Debian's nginx (<c>nginx-light</c> with <c>libnginx-mod-stream</c>, from <c>bash scripts/setup.sh --balancer</c>) in
/// the foreground with the stream block docs/DEPLOY.md shows, in front of one backend on a free loopback port.
/// </summary>
internal sealed class NginxStream : IAsyncDisposable
{
    private readonly ChildProcess _process;
    private readonly string _directory;

    private NginxStream(ChildProcess process, string directory, int port)
    {
        _process = process;
        _directory = directory;
        Port = port;
    }

    public int Port { get; }

    public static async Task<NginxStream> StartAsync(Backend backend)
    {
        int port;
        using (var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
        {
            probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            port = ((IPEndPoint)probe.LocalEndPoint!).Port;
        }

        var directory = Directory.CreateTempSubdirectory("berth-nginx-").FullName;
        var config = Path.Combine(directory, "nginx.conf");
        await File.WriteAllTextAsync(config, $$"""
            load_module /usr/lib/nginx/modules/ngx_stream_module.so;
            pid {{directory}}/nginx.pid;
            error_log stderr info;
            worker_processes 1;
            events { worker_connections 256; }
            stream {
                upstream berth {
                    server 127.0.0.1:{{backend.Port}} max_fails=1 fail_timeout=5s;
                }
                server {
                    listen 127.0.0.1:{{port}};
                    proxy_pass berth;
                    proxy_protocol on;
                    proxy_connect_timeout 1s;
                    proxy_timeout 60s;
                    proxy_next_upstream on;
                }
            }
            """);
        var process = new ChildProcess("nginx", ["-e", "stderr", "-p", directory, "-c", config, "-g", "daemon off;"]);
        var nginx = new NginxStream(process, directory, port);
        for (var attempt = 0; ; attempt++)
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            try
            {
                await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port));
                return nginx;
            }
            catch (SocketException) when (attempt < 200)
            {
                await Task.Delay(50);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _process.DisposeAsync();
        Directory.Delete(_directory, recursive: true);
    }
}
