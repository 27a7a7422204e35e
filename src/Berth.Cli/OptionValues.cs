using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace Berth.Cli;

/// <summary>
/// Builds options whose values are checked while parsing, so a bad value is a usage error (exit 2) before any work
/// starts, with a message that names the option and the accepted range.
/// </summary>
internal static class OptionValues
{
    public static Option<int> Int(string name, string description, int defaultValue, int min, int max = int.MaxValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => Parse(result, min, max, ParseInt, "a whole number"),
        HelpName = "N",
    };

    public static Option<double> Double(string name, string description, double defaultValue, double min, double max, string helpName) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => Parse(result, min, max, ParseDouble, "a number"),
        HelpName = helpName,
    };

    /// <summary>An optional whole number: null when not given, for options whose default depends on others.</summary>
    public static Option<int?> OptionalInt(string name, string description, int min, int max) => new(name)
    {
        Description = description,
        CustomParser = result => Parse(result, min, max, ParseInt, "a whole number"),
        HelpName = "N",
    };

    /// <summary>An optional number: null when not given, for options whose default depends on others.</summary>
    public static Option<double?> OptionalDouble(string name, string description, double min, double max, string helpName) => new(name)
    {
        Description = description,
        CustomParser = result => Parse(result, min, max, ParseDouble, "a number"),
        HelpName = helpName,
    };

    public static Option<string> Text(string name, string description, string defaultValue, string helpName) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        HelpName = helpName,
    };

    public static Option<string?> OptionalText(string name, string description, string helpName) => new(name)
    {
        Description = description,
        HelpName = helpName,
    };

    public static Option<bool> Flag(string name, string description) => new(name) { Description = description };

    private static int? ParseInt(string text) =>
        int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : null;

    private static double? ParseDouble(string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) ? value : null;

    private static T Parse<T>(ArgumentResult result, T min, T max, Func<string, T?> parse, string kind)
        where T : struct, IComparable<T>
    {
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        var name = (result.Parent as OptionResult)?.Option.Name ?? "value";
        if (parse(text) is { } value && value.CompareTo(min) >= 0 && value.CompareTo(max) <= 0)
        {
            return value;
        }

        result.AddError(string.Create(CultureInfo.InvariantCulture, $"option '{name}' must be {kind} from {min} to {max}, not '{text}'"));
        return default;
    }
}
