namespace Berth.Cli.Zmq;

/// <summary>What <c>berth zmq bench</c> was asked for; outputs are known to be writable.</summary>
internal sealed record ZmqBenchSettings(bool Quick, string OutDirectory, string? DataPath, string Command);
