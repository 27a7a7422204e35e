using System.Text;

namespace Berth.Report;

/// <summary>A GitHub-flavoured Markdown table; numeric columns are right-aligned.</summary>
internal sealed class MarkdownTable(IReadOnlyList<string> headers, IReadOnlySet<int> rightAligned)
{
    private readonly List<IReadOnlyList<string>> _rows = [];

    public void Add(IReadOnlyList<string> cells) => _rows.Add(cells);

    public override string ToString()
    {
        var text = new StringBuilder();
        text.Append("| ").AppendJoin(" | ", headers.Select(Escape)).AppendLine(" |");
        text.Append('|').AppendJoin('|', headers.Select((_, i) => rightAligned.Contains(i) ? "---:" : "---")).AppendLine("|");
        foreach (var row in _rows)
        {
            text.Append("| ").AppendJoin(" | ", row.Select(Escape)).AppendLine(" |");
        }

        return text.ToString();
    }

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal);
}
