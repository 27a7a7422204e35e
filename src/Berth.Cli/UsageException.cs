namespace Berth.Cli;

/// <summary>A bad option or argument: reported as one line with exit code 2.</summary>
internal sealed class UsageException(string message) : Exception(message);
