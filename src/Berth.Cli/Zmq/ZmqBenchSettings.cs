namespace Berth.Cli.Zmq;

/// <summary>
/// What <c>berth zmq bench</c> was asked for; outputs are known to be writable; <paramref name="NetZmqSource"/> is a
/// Net.Zmq checkout or null; <paramref name="Rounds"/> null means the default (3, or 1 with --quick);
/// <paramref name="Size"/> null means every message size.
/// </summary>
internal sealed record ZmqBenchSettings(bool Quick, string OutDirectory, string? DataPath, string Command, string? NetZmqSource, int? Rounds, int? Size);
