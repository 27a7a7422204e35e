namespace Berth.Results;

/// <summary>Reads each result file once per rendering, remembering why one could not be read.</summary>
internal sealed class ResultFileCache
{
    private readonly Dictionary<string, (ResultFile? File, string? Error)> files = new(StringComparer.Ordinal);

    public bool TryRead(string path, out ResultFile? file, out string? error)
    {
        var fullPath = Path.GetFullPath(path);
        if (!files.TryGetValue(fullPath, out var entry))
        {
            try
            {
                entry = (ResultFileReader.Read(fullPath), null);
            }
            catch (InvalidDataException e)
            {
                entry = (null, e.Message);
            }

            files[fullPath] = entry;
        }

        (file, error) = entry;
        return file is not null;
    }
}
