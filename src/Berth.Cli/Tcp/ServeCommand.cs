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
        var scheduling = new Option<HandlerScheduling>("--scheduling")
        {
            Description = "Inline runs the echo on Berth's epoll loop threads (Linux, plain TCP); ThreadPool on the runtime's socket engine.",
            DefaultValueFactory = _ => HandlerScheduling.Inline,
        };
        var command = new Command("serve", "Echo server in Berth's wire format until Ctrl-C or SIGTERM; prints 'listening on HOST:PORT' when ready.")
        {
            host, port, maxFrame, maxConnections, idleTimeout, frameTimeout, slowConsumerTimeout, shutdownTimeout, scheduling,
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
                parsed.GetValue(scheduling)),
            ServeRun.RunAsync);
        return command;
    }

    private static TimeSpan? Limit(double seconds) => seconds > 0 ? TimeSpan.FromSeconds(seconds) : null;
}
