using System.Text.RegularExpressions;

namespace Berth.Results;

/// <summary>
/// Finds what looks like a measured figure (a number followed by msg/s, ns, µs, us, ms, MB/s, GB/s, B/msg, or a ratio
/// such as 1.73x) outside a generated block, fenced code or inline code. Definitions, targets and defaults that must
/// stand in the text are listed in <see cref="AllowListPath"/>, the one place they are kept.
/// </summary>
internal static partial class FigureLint
{
    /// <summary>The allowlist, from the repository root.</summary>
    public const string AllowListPath = "docs/figures-allowed.txt";

    private const string UnconvertedPrefix = "unconverted:";

    /// <summary>Adds an error for every figure of <paramref name="text"/> the allowlist does not allow.</summary>
    public static void Check(string text, string documentName, AllowList allowed, List<string> errors)
    {
        if (allowed.Unconverted.Contains(documentName))
        {
            return;
        }

        var inBlock = false;
        var inFence = false;
        var lines = text.Split('\n');
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i].TrimEnd('\r');
            if (GeneratedBlocks.IsStartMarker(line))
            {
                inBlock = true;
                continue;
            }

            if (line == GeneratedBlocks.EndMarker)
            {
                inBlock = false;
                continue;
            }

            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                inFence = !inFence;
                continue;
            }

            if (inBlock || inFence)
            {
                continue;
            }

            foreach (Match figure in Figure().Matches(InlineCode().Replace(line, string.Empty)))
            {
                if (!allowed.Allows(documentName, figure.Value))
                {
                    errors.Add($"{documentName}:{i + 1}: figure \"{figure.Value}\" outside a generated block (a definition, target or default goes in {AllowListPath})");
                }
            }
        }
    }

    /// <summary>The figures allowed outside blocks: anywhere, in one document, and the documents not converted yet.</summary>
    internal sealed record AllowList(IReadOnlySet<string> Anywhere, IReadOnlySet<(string Document, string Figure)> InDocument, IReadOnlySet<string> Unconverted)
    {
        public static AllowList Empty { get; } = new(new HashSet<string>(), new HashSet<(string, string)>(), new HashSet<string>());

        /// <summary>
        /// Reads lines of the form <c>FIGURE</c>, <c>DOCUMENT: FIGURE</c> or <c>unconverted: DOCUMENT</c>; <c>#</c> starts a
        /// comment line.
        /// </summary>
        public static AllowList Read(string path)
        {
            if (!File.Exists(path))
            {
                return Empty;
            }

            var anywhere = new HashSet<string>(StringComparer.Ordinal);
            var inDocument = new HashSet<(string, string)>();
            var unconverted = new HashSet<string>(StringComparer.Ordinal);
            foreach (var raw in File.ReadLines(path))
            {
                var line = raw.Trim();
                if (line.Length == 0 || line.StartsWith('#'))
                {
                    continue;
                }

                var colon = line.IndexOf(": ", StringComparison.Ordinal);
                if (line.StartsWith(UnconvertedPrefix, StringComparison.Ordinal))
                {
                    unconverted.Add(line[UnconvertedPrefix.Length..].Trim());
                }
                else if (colon > 0 && line[..colon].EndsWith(".md", StringComparison.Ordinal))
                {
                    inDocument.Add((line[..colon], line[(colon + 2)..].Trim()));
                }
                else
                {
                    anywhere.Add(line);
                }
            }

            return new AllowList(anywhere, inDocument, unconverted);
        }

        public bool Allows(string document, string figure) => Anywhere.Contains(figure) || InDocument.Contains((document, figure));
    }

    [GeneratedRegex(@"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:msg/s|ns|µs|us|ms|MB/s|GB/s|B/msg|x)(?![\w/])")]
    private static partial Regex Figure();

    [GeneratedRegex("`[^`]*`")]
    private static partial Regex InlineCode();
}
