using System.CommandLine;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Cli.Tcp;

/// <summary><c>berth serve</c>: its options and how they map onto <see cref="ServeSettings"/>.</summary>
internal static class ServeCommand
{
    public static Command Create()
    {
        var host = OptionValues.Text("--host", "Address or name to listen on.", "127.0.0.1", "HOST");
        var port = OptionValues.Int("--port", "Port to listen on; 0 picks a free one (printed in the 'listening on' line).", 7000, 0, 65535);
        var maxFrame = OptionValues.Int("--max-frame", "Largest frame body accepted, in bytes; a larger one closes that connection.", LengthFieldFormat.DefaultMaxBodyLength, 0, int.MaxValue - 4);
        var maxConnections = OptionValues.Int("--max-connections", "Connections served at once; more are refused.", 10_000, 1);
        var idleTimeout = OptionValues.Double("--idle-timeout", "Close a connection that received nothing for this long; 0 never does.", 120, 0, 86_400, "SECONDS");
        var frameTimeout = OptionValues.Double("--frame-timeout", "Close a connection whose frame is not complete this long after its first byte arrived; 0 never does.", 10, 0, 86_400, "SECONDS");
        var slowConsumerTimeout = OptionValues.Double("--slow-consumer-timeout", "Close a connection whose peer stopped reading its replies for this long (its receive paused for a full send queue with no send completing); 0 never does.", 30, 0, 86_400, "SECONDS");
        var shutdownTimeout = OptionValues.Double("--shutdown-timeout", "On the first Ctrl-C or SIGTERM, how long connections get to flush before they are aborted; a second signal aborts at once.", 5, 0, 86_400, "SECONDS");
        var proxyProtocol = OptionValues.Flag("--proxy-protocol", "Connections from the trusted proxies begin with a PROXY-protocol header (v1 or v2, before TLS); the client it names becomes the connection's peer. Needs '--trusted-proxy'.");
        var trustedProxies = new Option<string[]>("--trusted-proxy")
        {
            Description = "An address range (CIDR, e.g. 10.0.0.0/8) allowed to send a PROXY header; repeat for more. A header from anywhere else closes its connection.",
            HelpName = "CIDR",
            DefaultValueFactory = _ => [],
        };
        var trustAny = OptionValues.Flag("--trust-any-proxy-unsafe", "Accept a PROXY header from any address: any client that reaches the port can then claim any address. Only for a port that nothing but the proxy can reach.");
        var proxyHeaderTimeout = OptionValues.Double("--proxy-header-timeout", "Close a connection whose PROXY header is not complete this long after the accept.", 5, 0.001, 3600, "SECONDS");
        var unix = OptionValues.OptionalText("--unix", "Listen on this Unix domain socket path instead of --host and --port (mode 0660; a stale socket file is replaced, anything else at the path is left alone; removed on stop).", "PATH");
        var healthPort = OptionValues.OptionalInt("--health-port", "Also listen on this TCP port (same host) for a load balancer's layer-4 health check; 0 picks a free one (printed in the 'health on' line). On the first signal it closes, so the balancer marks this server down while it drains.", 0, 65535);
        var drainDelay = OptionValues.Double("--drain-delay", "On the first Ctrl-C or SIGTERM, keep serving (and accepting) this long after the health port closed, so the balancer stops routing new connections here before the listener closes; a second signal skips it.", 0, 0, 3600, "SECONDS");
        var typed = OptionValues.Flag("--typed", "Echo typed messages instead of raw frames: each frame is read as message 1 (an int32 sequence and a UTF-8 payload, what 'berth-load --message-id 1' sends) through the generated reader and sent back through the generated writer; any other frame closes its connection.");
        var logConnections = OptionValues.Flag("--log-connections", "Print a line for each connection opened (with its peer: the client a trusted PROXY header named) and closed (with its reason).");
        var scheduling = new Option<HandlerScheduling>("--scheduling")
        {
            Description = "Inline runs the echo on Berth's epoll loop threads (Linux, plain TCP); ThreadPool on the runtime's socket engine.",
            DefaultValueFactory = _ => HandlerScheduling.Inline,
        };
        var command = new Command("serve", "Echo server in Berth's wire format until Ctrl-C or SIGTERM; prints 'listening on HOST:PORT' when ready.")
        {
            host, port, maxFrame, maxConnections, idleTimeout, frameTimeout, slowConsumerTimeout, shutdownTimeout, scheduling,
            proxyProtocol, trustedProxies, trustAny, proxyHeaderTimeout, unix, healthPort, drainDelay, logConnections, typed,
        };
        command.SetRun(
            parsed => new ServeSettings(
                EndPoints.Resolve(parsed.GetValue(host)!, parsed.GetValue(port)),
                parsed.GetValue(maxFrame),
                parsed.GetValue(maxConnections),
                Limit(parsed.GetValue(idleTimeout)),
                Limit(parsed.GetValue(frameTimeout)),
                Limit(parsed.GetValue(slowConsumerTimeout)),
                TimeSpan.FromSeconds(parsed.GetValue(shutdownTimeout)),
                parsed.GetValue(scheduling),
                ProxyProtocolSettings.From(parsed.GetValue(proxyProtocol), parsed.GetValue(trustedProxies)!, parsed.GetValue(trustAny), parsed.GetValue(proxyHeaderTimeout)),
                parsed.GetValue(unix),
                parsed.GetValue(healthPort) is { } health ? EndPoints.Resolve(parsed.GetValue(host)!, health) : null,
                TimeSpan.FromSeconds(parsed.GetValue(drainDelay)),
                parsed.GetValue(logConnections),
                parsed.GetValue(typed)),
            ServeRun.RunAsync);
        return command;
    }

    private static TimeSpan? Limit(double seconds) => seconds > 0 ? TimeSpan.FromSeconds(seconds) : null;
}
