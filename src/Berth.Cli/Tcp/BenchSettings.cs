namespace Berth.Cli.Tcp;

/// <summary>
/// What <c>berth bench</c> was asked for, checked: outputs are known to be writable; each cell runs <see cref="Repeat"/>
/// times; <see cref="Compare"/> asks for the side-by-side run instead, with NetCoreServer and SuperSocket built from
/// the source folders given (empty when not).
/// </summary>
internal sealed record BenchSettings(
    TimeSpan Warmup, TimeSpan Duration, int Repeat, string OutDirectory, string? DataPath, string Command, bool Quick, bool Compare,
    string NetCoreServerSource, string SuperSocketSource);
