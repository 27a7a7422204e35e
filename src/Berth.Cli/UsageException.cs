namespace Berth.Cli;

/// <summary>A bad option or argument found before any work started: reported as one line with <see cref="ExitCode.Usage"/>.</summary>
internal sealed class UsageException(string message) : Exception(message);
