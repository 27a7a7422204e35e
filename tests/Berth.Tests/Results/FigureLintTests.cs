using Berth.Results;

namespace Berth.Tests.Results;

public sealed class FigureLintTests
{
    private static readonly FigureLint.AllowList Allowed = new(
        new HashSet<string> { "0.8x" },
        new HashSet<(string, string)> { ("docs/TCP.md", "100 ms") },
        new HashSet<string> { "docs/OLD.md" });

    [Fact]
    public void A_measured_figure_in_the_text_is_an_error_naming_its_line()
    {
        var errors = Lint("docs/A.md", "Intro.\nBerth reached 1.73x the C server at 935,000 msg/s here.\n");

        Assert.Equal(2, errors.Count);
        Assert.Equal("docs/A.md:2: figure \"1.73x\" outside a generated block (a definition, target or default goes in docs/figures-allowed.txt)", errors[0]);
        Assert.Contains("\"935,000 msg/s\"", errors[1], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("<!-- generated: docs/data/a.json#t -->\n| 935K msg/s |\n<!-- end generated -->\n")]
    [InlineData("```\n$ berth bench\n935,000 msg/s\n```\n")]
    [InlineData("Run `berth load --rate 100ms` first.\n")]
    [InlineData("A 64 KiB body and 1 MiB of queue are sizes, not measurements.\n")]
    public void Blocks_code_and_sizes_are_not_figures(string text) => Assert.Empty(Lint("docs/A.md", text));

    [Fact]
    public void The_allowlist_allows_a_figure_anywhere_in_one_document_or_a_whole_unconverted_document()
    {
        Assert.Empty(Lint("docs/A.md", "The target is 0.8x the C server.\n"));
        Assert.Empty(Lint("docs/TCP.md", "The first delay is 100 ms.\n"));
        Assert.Single(Lint("docs/A.md", "The first delay is 100 ms.\n"));
        Assert.Empty(Lint("docs/OLD.md", "It did 12.3 ns.\n"));
    }

    private static List<string> Lint(string document, string text)
    {
        var errors = new List<string>();
        FigureLint.Check(text, document, Allowed, errors);
        return errors;
    }
}
