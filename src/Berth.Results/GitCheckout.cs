using System.Diagnostics;

namespace Berth.Results;

/// <summary>The commit the current directory's git checkout is at, and whether tracked files differ from it.</summary>
internal static class GitCheckout
{
    public const string UnknownCommit = "unknown";

    public static (string Commit, bool? Dirty) Describe()
    {
        var commit = Git("rev-parse HEAD")?.Trim();
        if (string.IsNullOrEmpty(commit))
        {
            return (UnknownCommit, null);
        }

        var status = Git("status --porcelain --untracked-files=no");
        return (commit, status is null ? null : status.Trim().Length > 0);
    }

    private static string? Git(string arguments)
    {
        try
        {
            using var git = Process.Start(new ProcessStartInfo("git", arguments)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            });
            if (git is null)
            {
                return null;
            }

            var output = git.StandardOutput.ReadToEnd();
            git.StandardError.ReadToEnd();
            git.WaitForExit();
            return git.ExitCode == 0 ? output : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // No git on the machine: the run is still worth recording, with an unknown commit.
            return null;
        }
    }
}
