using System.CommandLine;
using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary><c>berth zmq echo|bench|cell</c>: their options and how they map onto their settings records.</summary>
internal static class ZmqCommand
{
    public static Command Create() => new("zmq", "ZeroMQ echo server and benchmark (Berth.Zmq beside libzmq driven from C).")
    {
        Echo(),
        Bench(),
        Cell(),
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
        var netZmq = OptionValues.OptionalText("--netzmq", "A Net.Zmq source checkout: bench/peers/build-netzmq.sh builds the Net.Zmq program from it and the bench runs it beside the others.", "DIR");
        var rounds = OptionValues.OptionalInt("--rounds", "Interleaved rounds per cell (default 3, 1 with --quick); each round's ratio to C is reported.", 1, 100);
        var size = OptionValues.OptionalInt("--size", "Measure throughput at this message size only, in bytes (default: 64, 1024, 65536 and 1048576).", 1, 64 * 1024 * 1024);
        var command = new Command("bench", "PUSH/PULL and ROUTER/DEALER throughput per size and REQ/REP latency through Berth.Zmq, each beside the C program on libzmq, Net.Zmq (with --netzmq) and NetMQ.") { quick, outDirectory, data, netZmq, rounds, size };
        command.SetRun(
            parsed => new ZmqBenchSettings(
                parsed.GetValue(quick),
                OutputFiles.CheckFolder(parsed.GetValue(outDirectory)!, "--out"),
                OutputFiles.CheckFile(parsed.GetValue(data), "--data"),
                CommandText.Of(parsed),
                CheckNetZmqSource(parsed.GetValue(netZmq)),
                parsed.GetValue(rounds),
                parsed.GetValue(size)),
            settings => Task.FromResult(ZmqBenchmark.Run(settings)));
        return command;
    }

    private static Command Cell()
    {
        var pattern = OptionValues.Text("--pattern", "push-pull or router-dealer.", "push-pull", "PATTERN");
        pattern.AcceptOnlyFromAmong("push-pull", "router-dealer");
        var strategy = OptionValues.Text("--strategy", "How the sender makes each message, as in the bench's Berth rows.", nameof(SendStrategy.Default), "STRATEGY");
        strategy.AcceptOnlyFromAmong(Enum.GetNames<SendStrategy>());
        var size = OptionValues.Int("--size", "Message size in bytes.", 64, 1, 64 * 1024 * 1024);
        var count = OptionValues.Int("--count", "Messages per round (after a warm-up of a tenth, at least 3,000).", 2_000_000, 2);
        var rounds = OptionValues.Int("--rounds", "Rounds, one after another in this process.", 6, 1);
        var command = new Command("cell", "Runs one Berth.Zmq throughput cell of the bench round after round and prints each round's rate: a target for profilers, not a comparison.") { pattern, strategy, size, count, rounds };
        command.SetRun(
            parsed => new ZmqCellSettings(
                parsed.GetValue(pattern) == "router-dealer" ? ThroughputPattern.RouterDealer : ThroughputPattern.PushPull,
                Enum.Parse<SendStrategy>(parsed.GetValue(strategy)!),
                parsed.GetValue(size),
                parsed.GetValue(count),
                parsed.GetValue(rounds)),
            settings => Task.FromResult(ZmqCell.Run(settings)));
        return command;
    }

    private static string? CheckNetZmqSource(string? folder)
    {
        if (folder is not null && !File.Exists(Path.Combine(folder, "src", "Net.Zmq", "Net.Zmq.csproj")))
        {
            throw new UsageException($"--netzmq {folder}: not a Net.Zmq checkout (no src/Net.Zmq/Net.Zmq.csproj)");
        }

        return folder is null ? null : Path.GetFullPath(folder);
    }
}
