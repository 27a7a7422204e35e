using System.CommandLine;
using Berth.Framing;

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
        var idleTimeout = OptionValues.Double("--idle-timeout", "Close a connection silent for this long; 0 never does.", 0, 0, 86_400, "SECONDS");
        var shutdownTimeout = OptionValues.Double("--shutdown-timeout", "On the first Ctrl-C or SIGTERM, how long connections get to flush before they are aborted; a second signal aborts at once.", 5, 0, 86_400, "SECONDS");
        var command = new Command("serve", "Echo server in Berth's wire format until Ctrl-C or SIGTERM; prints 'listening on HOST:PORT' when ready.")
        {
            host, port, maxFrame, maxConnections, idleTimeout, shutdownTimeout,
        };
        command.SetRun(
            parsed => new ServeSettings(
                EndPoints.Resolve(parsed.GetValue(host)!, parsed.GetValue(port)),
                parsed.GetValue(maxFrame),
                parsed.GetValue(maxConnections),
                parsed.GetValue(idleTimeout) is > 0 and var seconds ? TimeSpan.FromSeconds(seconds) : null,
                TimeSpan.FromSeconds(parsed.GetValue(shutdownTimeout))),
            ServeRun.RunAsync);
        return command;
    }
}
