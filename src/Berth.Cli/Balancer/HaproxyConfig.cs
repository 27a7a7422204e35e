using System.Globalization;
using System.Text;

namespace Berth.Cli.Balancer;

/// <summary>
/// The HAProxy configuration the balancer tests and <c>berth rolling-restart</c> run (docs/DEPLOY.md shows it): layer 4,
/// PROXY v2 to the backends, a TCP check of each backend's health port, and redispatch of a connect that fails.
/// </summary>
internal static class HaproxyConfig
{
    /// <summary>The name of the one backend section, as HAProxy's "Server NAME/SERVER is DOWN" lines spell it.</summary>
    public const string BackendName = "berth";

    public static string Render(int frontendPort, IEnumerable<Backend> backends)
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"""
            global
                log stderr format raw local0 info
                maxconn 4096

            defaults
                mode tcp
                log global
                option tcplog
                timeout connect 1s
                timeout client 60s
                timeout server 60s
                timeout check 1s
                retries 3
                option redispatch

            frontend clients
                bind 127.0.0.1:{frontendPort}
                default_backend {BackendName}

            backend {BackendName}
                balance roundrobin
                default-server send-proxy-v2 check inter 100ms fall 2 rise 2

            """);
        foreach (var backend in backends)
        {
            text.Append(CultureInfo.InvariantCulture, $"    server {backend.Name} 127.0.0.1:{backend.Port} check port {backend.HealthPort}\n");
        }

        return text.ToString();
    }
}
