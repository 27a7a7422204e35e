namespace Berth.Cli.Soak;

/// <summary><c>berth soak</c>: parses its options into <see cref="SoakSettings"/> and runs <see cref="SoakRunner"/>.</summary>
internal static class SoakCommand
{
    public const string Summary = "soak test: berth soak [--duration 10m] [--connections 50] [--rate 100] [--no-hostile] [--churn-rounds 0] [--resets-per-round 200000] [--shared-pool] [--max-growth 1.2] [--output artifacts/soak]";

    public static async Task<int> RunAsync(string[] args)
    {
        var options = new Options(args, "no-hostile", "shared-pool");
        var settings = new SoakSettings
        {
            Duration = ParseDuration(options.String("duration", "10m")),
            Connections = options.Int("connections", 50, 1, 5_000),
            Rate = options.Double("rate", 100, 1, 100_000),
            Hostile = !options.Flag("no-hostile"),
            ChurnRounds = options.Int("churn-rounds", 0, 0, 1_000),
            ResetsPerRound = options.Int("resets-per-round", 200_000, 1),
            SharedArrayPool = options.Flag("shared-pool"),
            MaxGrowth = options.Double("max-growth", 1.2, 1, 100),
            Output = options.String("output", "artifacts/soak"),
        };
        options.RejectUnknown();
        return await RunAsync(settings, CancellationToken.None);
    }

    /// <summary>Runs a soak, writes soak.json and soak.html, prints the verdict; 0 when it passed, 1 when it did not.</summary>
    public static async Task<int> RunAsync(SoakSettings settings, CancellationToken cancellationToken)
    {
        var result = await new SoakRunner(settings).RunAsync(cancellationToken);
        Directory.CreateDirectory(settings.Output);
        SoakJsonWriter.Write(Path.Combine(settings.Output, "soak.json"), result);
        SoakChartWriter.Write(Path.Combine(settings.Output, "soak.html"), result);
        var verdict = result.Verdict;
        Console.WriteLine($"witness: {result.WitnessFrames} frames, {result.WitnessLost} lost, {result.WitnessCorrupted} corrupted; churned {result.Churned}; attacks {string.Join(", ", result.Attacks.OrderBy(a => a.Key, StringComparer.Ordinal).Select(a => $"{a.Key} {a.Value.Held}/{a.Value.Runs}"))}");
        Console.WriteLine($"rss after warm-up {verdict.BaselineResidentBytes / 1048576.0:F1} MB, at the end {verdict.FinalResidentBytes / 1048576.0:F1} MB (x{verdict.Growth:F2}); settled {result.Settled.ResidentBytes / 1048576.0:F1} MB, after aggressive GC {result.AfterAggressiveGc.ResidentBytes / 1048576.0:F1} MB (gc heap {result.AfterAggressiveGc.GcHeapBytes / 1048576.0:F1} MB)");
        Console.WriteLine($"wrote {Path.Combine(settings.Output, "soak.json")} and soak.html");
        foreach (var failure in verdict.Failures)
        {
            Console.WriteLine($"FAILED: {failure}");
        }

        return verdict.Passed ? 0 : 1;
    }

    /// <summary>Reads 90, 90s, 15m or 1h.</summary>
    private static TimeSpan ParseDuration(string text)
    {
        var unit = text[^1];
        var number = char.IsDigit(unit) ? text : text[..^1];
        if (!double.TryParse(number, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var value) || value <= 0)
        {
            throw new UsageException($"option '--duration' must be like 90s, 10m or 1h, not '{text}'");
        }

        return unit switch
        {
            'h' => TimeSpan.FromHours(value),
            'm' => TimeSpan.FromMinutes(value),
            's' or >= '0' and <= '9' => TimeSpan.FromSeconds(value),
            _ => throw new UsageException($"option '--duration' must be like 90s, 10m or 1h, not '{text}'"),
        };
    }
}
