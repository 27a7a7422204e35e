namespace Berth.Cli.Tcp;

/// <summary>What <c>berth bench</c> was asked for, checked: outputs are known to be writable.</summary>
internal sealed record BenchSettings(TimeSpan Warmup, TimeSpan Duration, string OutDirectory, string? JsonPath, string Command);
