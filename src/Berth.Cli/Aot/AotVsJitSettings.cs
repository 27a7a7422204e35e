namespace Berth.Cli.Aot;

/// <summary>What <c>berth aot-vs-jit</c> compares and how long it runs.</summary>
internal sealed record AotVsJitSettings(
    IReadOnlyList<AotBuild> Builds,
    int Rounds,
    TimeSpan IdleSettle,
    TimeSpan Warmup,
    TimeSpan Duration,
    string? DataPath,
    string Command)
{
    /// <summary>
    /// The build every NativeAOT run's msg/s is paired with: the framework-dependent JIT build the tool ships. Its
    /// steady-state code is the same tiered JIT code as the ReadyToRun build's, which adds precompiled code only for the start.
    /// </summary>
    public AotBuild ThroughputAnchor => Builds.Single(b => b.Name == AotBuild.Jit);
}
