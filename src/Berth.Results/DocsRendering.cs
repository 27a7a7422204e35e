namespace Berth.Results;

/// <summary>What rendering the documents found: the documents whose blocks changed, and the blocks that could not be rendered.</summary>
internal sealed record DocsRenderOutcome(IReadOnlyList<string> Changed, IReadOnlyList<string> Errors);

/// <summary>
/// Renders the generated blocks of README.md and every Markdown file under docs/, writing the documents that change,
/// or, in check mode, only reporting them; and finds figures standing outside the blocks (<see cref="FigureLint"/>).
/// </summary>
internal static class DocsRendering
{
    public static IEnumerable<string> Documents(string repositoryRoot)
    {
        var readme = Path.Combine(repositoryRoot, "README.md");
        if (File.Exists(readme))
        {
            yield return readme;
        }

        var docs = Path.Combine(repositoryRoot, "docs");
        if (Directory.Exists(docs))
        {
            foreach (var document in Directory.EnumerateFiles(docs, "*.md", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
            {
                yield return document;
            }
        }
    }

    public static DocsRenderOutcome Run(string repositoryRoot, bool check)
    {
        var files = new ResultFileCache();
        var allowed = FigureLint.AllowList.Read(Path.Combine(repositoryRoot, FigureLint.AllowListPath));
        var changed = new List<string>();
        var errors = new List<string>();
        foreach (var document in Documents(repositoryRoot))
        {
            var relative = Path.GetRelativePath(repositoryRoot, document).Replace('\\', '/');
            var text = File.ReadAllText(document);
            var rendered = GeneratedBlocks.Render(text, document, repositoryRoot, files, errors, relative);
            FigureLint.Check(rendered, relative, allowed, errors);
            if (rendered == text)
            {
                continue;
            }

            changed.Add(relative);
            if (!check)
            {
                File.WriteAllText(document, rendered);
            }
        }

        return new DocsRenderOutcome(changed, errors);
    }
}
