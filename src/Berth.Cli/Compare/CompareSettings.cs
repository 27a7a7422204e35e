namespace Berth.Cli.Compare;

/// <summary>What <c>berth bench --compare</c> runs: how long each cell is measured, how often, and where the report goes.</summary>
internal sealed record CompareSettings
{
    /// <summary>One cell per server and 100 idle connections: proves the harness runs, in well under a minute.</summary>
    public bool Quick { get; init; }

    /// <summary>Times every cell runs, the servers interleaved (A B C A B C ...); medians and min-max are reported.</summary>
    public int Repeat { get; init; } = 1;

    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(4);

    /// <summary>Report folder: <c>compare.json</c> and <c>compare.html</c> are written into it.</summary>
    public string OutDirectory { get; init; } = "berth-report";

    /// <summary>An extra copy of the result file (docs/RESULTS.md), such as docs/data/tcp/compare.json, or null for none.</summary>
    public string? DataPath { get; init; }

    /// <summary>The command line as the user typed it, printed with every table.</summary>
    public required string Command { get; init; }
}
