namespace Berth.Cli;

/// <summary>
/// Checks, before a run starts, that its output can be written: a long benchmark must not find out at the end that
/// its report folder is read-only. A failed check is a usage error.
/// </summary>
internal static class OutputFiles
{
    /// <summary>Creates <paramref name="directory"/> if needed and proves a file can be written in it.</summary>
    public static string CheckFolder(string directory, string option)
    {
        try
        {
            Directory.CreateDirectory(directory);
            var probe = Path.Combine(directory, $".berth-write-check-{Environment.ProcessId}");
            File.WriteAllBytes(probe, []);
            File.Delete(probe);
            return directory;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new UsageException($"cannot write to '{directory}' (option '{option}'): {e.Message}");
        }
    }

    /// <summary>Checks that the folder of <paramref name="path"/> can be written; null (no file asked for) passes.</summary>
    public static string? CheckFile(string? path, string option)
    {
        if (path is null)
        {
            return null;
        }

        CheckFolder(Path.GetDirectoryName(Path.GetFullPath(path)) ?? ".", option);
        return path;
    }
}
