namespace Berth.Cli.Compare;

/// <summary>One load run of one server on one cell, with the server's CPU seconds per million messages over its window.</summary>
internal sealed record CellSample(string Server, CompareCell Cell, LoadOutcome Outcome, double CpuSecondsPerMillion);

/// <summary>One idle-memory measurement: the server's resident memory growth per idle connection.</summary>
internal sealed record IdleSample(string Server, int Connections, double BytesPerConnection, long Errors);
