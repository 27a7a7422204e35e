using System.CommandLine;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary><c>berth zmq echo|bench</c>: their options and how they map onto <see cref="ZmqEchoSettings"/> and <see cref="ZmqBenchSettings"/>.</summary>
internal static class ZmqCommand
{
    public static Command Create() => new("zmq", "ZeroMQ echo server and benchmark (Berth.Zmq beside libzmq driven from C).")
    {
        Echo(),
        Bench(),
    };

    private static Command Echo()
    {
        var type = OptionValues.Text("--type", "Socket type: rep answers each request; router sends each message back to its sender.", "rep", "TYPE");
        type.AcceptOnlyFromAmong("rep", "router");
        var bind = OptionValues.Text("--bind", "Endpoint to bind.", "tcp://127.0.0.1:5555", "ENDPOINT");
        var maxMessageSize = OptionValues.Int("--max-msg-size", "Largest message a peer may send, in bytes (ZMQ_MAXMSGSIZE); a peer that sends more is disconnected. -1: no limit.", -1, -1);
        var command = new Command("echo", "Echo every multipart message until Ctrl-C or SIGTERM; prints 'listening on ENDPOINT' when ready.") { type, bind, maxMessageSize };
        command.SetRun(
            parsed => new ZmqEchoSettings(parsed.GetValue(type) == "router" ? ZmqSocketType.Router : ZmqSocketType.Rep, parsed.GetValue(bind)!, parsed.GetValue(maxMessageSize)),
            settings => Task.FromResult(ZmqEchoServer.Run(settings)));
        return command;
    }

    private static Command Bench()
    {
        var quick = OptionValues.Flag("--quick", "Fewer messages and one run per cell, for a first look.");
        var outDirectory = OptionValues.Text("--out", "Folder for the report (index.html and results.json); checked writable before the run.", "berth-zmq-report", "DIR");
        var data = OptionValues.OptionalText("--data", "Also write the result file (docs/RESULTS.md) here, e.g. docs/data/zmq/bench.json.", "FILE");
        var command = new Command("bench", "PUSH/PULL throughput per size and send strategy and REQ/REP latency through Berth.Zmq, each beside the C program on libzmq and NetMQ.") { quick, outDirectory, data };
        command.SetRun(
            parsed => new ZmqBenchSettings(
                parsed.GetValue(quick),
                OutputFiles.CheckFolder(parsed.GetValue(outDirectory)!, "--out"),
                OutputFiles.CheckFile(parsed.GetValue(data), "--data"),
                CommandText.Of(parsed)),
            settings => Task.FromResult(ZmqBenchmark.Run(settings)));
        return command;
    }
}
