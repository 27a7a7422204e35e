using System.Text;
using System.Text.RegularExpressions;

namespace Berth.Results;

/// <summary>
/// Rewrites the generated blocks of a Markdown document: each <c>&lt;!-- generated: FILE#TABLE --&gt;</c> line and
/// the next <c>&lt;!-- end generated --&gt;</c> line enclose the provenance line and table rendered from that result
/// file (a path from the repository root). Everything outside the blocks is kept byte for byte.
/// </summary>
internal static partial class GeneratedBlocks
{
    public const string EndMarker = "<!-- end generated -->";

    /// <summary>The document with every block re-rendered; errors name the line of each block that cannot be.</summary>
    /// <param name="documentName">How errors name the document.</param>
    public static string Render(string text, string documentPath, string repositoryRoot, ResultFileCache files, List<string> errors, string documentName)
    {
        var lines = text.Split('\n');
        var output = new StringBuilder(text.Length);
        for (var i = 0; i < lines.Length; i++)
        {
            var match = StartMarker().Match(lines[i].TrimEnd('\r'));
            if (!match.Success)
            {
                if (lines[i].TrimEnd('\r') == EndMarker)
                {
                    errors.Add($"{documentName}:{i + 1}: {EndMarker} without a block opened above it");
                }

                output.Append(lines[i]);
                if (i < lines.Length - 1)
                {
                    output.Append('\n');
                }

                continue;
            }

            var end = i + 1;
            while (end < lines.Length && lines[end].TrimEnd('\r') != EndMarker && !StartMarker().IsMatch(lines[end]))
            {
                end++;
            }

            if (end == lines.Length || lines[end].TrimEnd('\r') != EndMarker)
            {
                errors.Add($"{documentName}:{i + 1}: generated block is not closed by {EndMarker}");
                output.Append(lines[i]).Append('\n');
                continue;
            }

            output.Append(lines[i]).Append('\n');
            var rendered = RenderBlock(match.Groups["file"].Value, match.Groups["table"].Value, documentPath, repositoryRoot, files, out var error);
            if (error is not null)
            {
                errors.Add($"{documentName}:{i + 1}: {error}");
                for (var kept = i + 1; kept < end; kept++)
                {
                    output.Append(lines[kept]).Append('\n');
                }
            }
            else
            {
                output.Append(rendered);
            }

            output.Append(lines[end]);
            if (end < lines.Length - 1)
            {
                output.Append('\n');
            }

            i = end;
        }

        return output.ToString();
    }

    private static string? RenderBlock(string file, string tableId, string documentPath, string repositoryRoot, ResultFileCache files, out string? error)
    {
        var dataPath = Path.Combine(repositoryRoot, file);
        if (!File.Exists(dataPath))
        {
            error = $"{file}: no such result file";
            return null;
        }

        if (!files.TryRead(dataPath, out var result, out error))
        {
            return null;
        }

        if (result!.Table(tableId) is not { } table)
        {
            error = $"{file} has no table \"{tableId}\"";
            return null;
        }

        var documentDirectory = Path.GetDirectoryName(Path.GetFullPath(documentPath))!;
        var link = Path.GetRelativePath(documentDirectory, Path.GetFullPath(dataPath)).Replace('\\', '/');
        var output = new StringBuilder();
        output.Append(ProvenanceLine.Render(result.Provenance, link, file)).Append("\n\n");
        MarkdownTable.Render(output, table);
        return output.ToString();
    }

    public static bool IsStartMarker(string line) => StartMarker().IsMatch(line);

    [GeneratedRegex(@"^<!-- generated: (?<file>[^#\s]+)#(?<table>[^\s]+) -->$")]
    private static partial Regex StartMarker();
}
