namespace Berth.Cli.Compare;

/// <summary>
/// One load run of one server on one cell in one round, with the server's CPU seconds per million messages over its
/// window. Within a round the servers run the cell back to back, so two servers' samples of one round form a pair.
/// </summary>
internal sealed record CellSample(string Server, CompareCell Cell, int Round, LoadOutcome Outcome, double CpuSecondsPerMillion);

/// <summary>One idle-memory measurement: the server's resident memory growth per idle connection.</summary>
internal sealed record IdleSample(string Server, int Connections, double BytesPerConnection, long Errors);
