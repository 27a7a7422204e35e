using Berth.Cli.Load;

namespace Berth.Cli.Tcp;

/// <summary>What <c>berth load</c> was asked for: the load, where to write its table, and the command line to print with it.</summary>
internal sealed record LoadRequest(LoadSettings Load, string? DataPath, string Command);
