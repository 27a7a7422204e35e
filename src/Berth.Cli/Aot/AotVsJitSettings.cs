namespace Berth.Cli.Aot;

/// <summary>What <c>berth aot-vs-jit</c> compares and how long it runs.</summary>
internal sealed record AotVsJitSettings(
    IReadOnlyList<AotBuild> Builds,
    int Rounds,
    TimeSpan IdleSettle,
    TimeSpan Warmup,
    TimeSpan Duration,
    string? DataPath,
    string Command);
