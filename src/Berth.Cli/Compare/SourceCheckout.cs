namespace Berth.Cli.Compare;

/// <summary>
/// Finds the repository the comparison builds its other servers and the load generator from: the first directory
/// holding <c>Berth.slnx</c>, walking up from the current directory, then from the executable's directory.
/// </summary>
internal static class SourceCheckout
{
    private const string SolutionFile = "Berth.slnx";

    public static string FindRoot() =>
        FindAbove(Directory.GetCurrentDirectory())
        ?? FindAbove(AppContext.BaseDirectory)
        ?? throw new IOException($"--compare needs a source checkout of Berth ({SolutionFile} not found above the current directory or the berth executable)");

    private static string? FindAbove(string start)
    {
        for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, SolutionFile)))
            {
                return directory.FullName;
            }
        }

        return null;
    }
}
