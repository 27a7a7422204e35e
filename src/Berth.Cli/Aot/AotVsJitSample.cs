namespace Berth.Cli.Aot;

/// <summary>
/// One start of one build: from process start to its listening line, its idle RSS, and the echo rate under load.
/// <see cref="PairedWith"/> names the NativeAOT build this JIT run was started together with, for that build's
/// msg/s ratio; null for the run of the round's rotation.
/// </summary>
internal sealed record AotVsJitSample(
    string Build, int Round, double ListeningMilliseconds, double IdleResidentBytes, double MessagesPerSecond, long Errors, string? PairedWith = null);
