using System.CommandLine;

namespace Berth.Cli;

/// <summary>The command line as the user typed it, for reports: a value with a space is quoted, nothing trails.</summary>
internal static class CommandText
{
    public static string Of(ParseResult parsed) =>
        string.Join(' ', parsed.Tokens.Select(t => t.Value.Contains(' ', StringComparison.Ordinal) ? $"'{t.Value}'" : t.Value).Prepend("berth"));
}
