namespace Berth.Cli.Tcp;

/// <summary>What <c>berth bench</c> was asked for, checked: outputs are known to be writable; each cell runs <see cref="Repeat"/> times; <see cref="Compare"/> asks for the side-by-side run instead.</summary>
internal sealed record BenchSettings(TimeSpan Warmup, TimeSpan Duration, int Repeat, string OutDirectory, string? DataPath, string Command, bool Quick, bool Compare);
