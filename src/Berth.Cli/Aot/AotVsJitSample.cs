namespace Berth.Cli.Aot;

/// <summary>One start of one build: from process start to its listening line, its idle RSS, and the echo rate under load.</summary>
internal sealed record AotVsJitSample(string Build, int Round, double ListeningMilliseconds, double IdleResidentBytes, double MessagesPerSecond, long Errors);
