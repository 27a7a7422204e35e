namespace Berth.Cli.Compare;

/// <summary>
/// One load run of one server on one cell in one round, with the server's CPU seconds per million messages over its
/// window. Berth runs once per other server in a round, right before it: <paramref name="Partner"/> names that server
/// (null on the other servers' samples, which run once per round).
/// </summary>
internal sealed record CellSample(string Server, string? Partner, CompareCell Cell, int Round, LoadOutcome Outcome, double CpuSecondsPerMillion);

/// <summary>One idle-memory measurement: the server's resident memory growth per idle connection.</summary>
internal sealed record IdleSample(string Server, int Connections, double BytesPerConnection, long Errors);
