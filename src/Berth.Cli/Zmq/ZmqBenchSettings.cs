namespace Berth.Cli.Zmq;

/// <summary>What <c>berth zmq bench</c> was asked for; outputs are known to be writable; <paramref name="NetZmqSource"/> is a Net.Zmq checkout or null.</summary>
internal sealed record ZmqBenchSettings(bool Quick, string OutDirectory, string? JsonPath, string Command, string? NetZmqSource);
