using System.Globalization;

namespace Berth.Cli;

/// <summary>Parses <c>--name value</c> and <c>--flag</c> options; unknown or malformed options raise <see cref="UsageException"/>.</summary>
internal sealed class Options
{
    private readonly Dictionary<string, string?> _values = new(StringComparer.Ordinal);
    private readonly HashSet<string> _read = new(StringComparer.Ordinal);

    public Options(string[] args, params string[] flags)
    {
        for (var i = 0; i < args.Length; i++)
        {
            var arg = args[i];
            if (!arg.StartsWith("--", StringComparison.Ordinal) || arg.Length == 2)
            {
                throw new UsageException($"unexpected argument '{arg}'");
            }

            var name = arg[2..];
            if (flags.Contains(name))
            {
                _values[name] = null;
            }
            else if (i + 1 < args.Length)
            {
                _values[name] = args[++i];
            }
            else
            {
                throw new UsageException($"option '--{name}' needs a value");
            }
        }
    }

    public bool Flag(string name)
    {
        _read.Add(name);
        return _values.ContainsKey(name);
    }

    public string String(string name, string fallback)
    {
        _read.Add(name);
        return _values.TryGetValue(name, out var value) && value is not null ? value : fallback;
    }

    public int Int(string name, int fallback, int min = int.MinValue, int max = int.MaxValue)
    {
        _read.Add(name);
        if (!_values.TryGetValue(name, out var text) || text is null)
        {
            return fallback;
        }

        if (!int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            throw new UsageException($"option '--{name}' must be a whole number from {min} to {max}, not '{text}'");
        }

        return value;
    }

    public double Double(string name, double fallback, double min = 0, double max = double.MaxValue)
    {
        _read.Add(name);
        if (!_values.TryGetValue(name, out var text) || text is null)
        {
            return fallback;
        }

        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            throw new UsageException($"option '--{name}' must be a number from {min} to {max}, not '{text}'");
        }

        return value;
    }

    /// <summary>Call after reading every option: rejects the ones the command does not know.</summary>
    public void RejectUnknown()
    {
        foreach (var name in _values.Keys)
        {
            if (!_read.Contains(name))
            {
                throw new UsageException($"unknown option '--{name}'");
            }
        }
    }
}
