namespace Berth.Cli;

/// <summary>The exit codes every <c>berth</c> command uses, listed in <c>berth --help</c>.</summary>
internal static class ExitCode
{
    /// <summary>The command did what it was asked.</summary>
    public const int Done = 0;

    /// <summary>The command started and failed: a socket error, no echo, an interrupted run, a leaked buffer.</summary>
    public const int Failed = 1;

    /// <summary>The command line was wrong (unknown option, bad value, unwritable output); nothing was run.</summary>
    public const int Usage = 2;
}
