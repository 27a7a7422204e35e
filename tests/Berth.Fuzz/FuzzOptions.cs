using System.Globalization;

namespace Berth.Fuzz;

/// <summary>The command line of the fuzz runner.</summary>
internal sealed record FuzzOptions(long Cases, ulong Seed, string Target, long WarmUpCases, ulong? Replay, bool Guided)
{
    public static FuzzOptions Parse(string[] args)
    {
        var options = new FuzzOptions(1_000_000, 1, "all", 10_000, null, Guided: false);
        for (var i = 0; i < args.Length; i += 2)
        {
            if (args[i] == "--afl")
            {
                options = options with { Guided = true };
                i--;
                continue;
            }

            var value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"'{args[i]}' needs a value");
            options = args[i] switch
            {
                "--cases" => options with { Cases = long.Parse(value, CultureInfo.InvariantCulture) },
                "--seed" => options with { Seed = ulong.Parse(value, CultureInfo.InvariantCulture) },
                "--target" => options with { Target = value },
                "--warm-up" => options with { WarmUpCases = long.Parse(value, CultureInfo.InvariantCulture) },
                "--replay" => options with { Replay = ulong.Parse(value, CultureInfo.InvariantCulture) },
                _ => throw new ArgumentException($"unknown option '{args[i]}'"),
            };
        }

        return options;
    }
}
