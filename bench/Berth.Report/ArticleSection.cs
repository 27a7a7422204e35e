namespace Berth.Report;

/// <summary>
/// A benchmark class placed in the report under a chosen title, with what it answers.
/// <paramref name="PerItemParameter"/> names a parameter that counts items per operation (such as
/// messages per batch), for which the table adds a per-item column.
/// </summary>
internal sealed record ArticleSection(string Part, string TypeName, string Title, string Question, string? PerItemParameter = null);
