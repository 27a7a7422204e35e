using System.CommandLine;
using System.Globalization;
using Berth.Results;

namespace Berth.Cli.Soak;

/// <summary><c>berth soak</c>: its options and how they map onto <see cref="SoakSettings"/>.</summary>
internal static class SoakCommand
{
    public static Command Create()
    {
        var duration = OptionValues.Text("--duration", "How long the mixed load runs: 90, 90s, 10m or 1h.", "10m", "DURATION");
        var connections = OptionValues.Int("--connections", "Echo connections kept open for the whole run.", 50, 1, 5_000);
        var rate = OptionValues.Double("--rate", "Frames per second each echo connection sends.", 100, 1, 100_000, "PER_SECOND");
        var noHostile = OptionValues.Flag("--no-hostile", "Run the load and churn without the hostile peers.");
        var churnRounds = OptionValues.Int("--churn-rounds", "Rounds of pure connect-and-reset churn after the mixed load (0: none).", 0, 0, 1_000);
        var resetsPerRound = OptionValues.Int("--resets-per-round", "Connect-and-reset connections in one churn round.", 200_000, 1);
        var sharedPool = OptionValues.Flag("--shared-pool", "Serve from ArrayPool.Shared instead of the default pool, to compare what each keeps.");
        var maxGrowth = OptionValues.Double("--max-growth", "Fail when RSS at the end exceeds this multiple of RSS after warm-up.", 1.2, 1, 100, "FACTOR");
        var output = OptionValues.Text("--output", "Folder for soak.json and soak.html.", "artifacts/soak", "DIR");
        var data = OptionValues.OptionalText("--data", "Also write the judged figures as a result file (docs/RESULTS.md), e.g. docs/data/reliability/soak.json.", "FILE");
        var command = new Command("soak", "Echo load with connection churn and hostile peers against an in-process server; records memory, handles, threads, throughput and a witness's p99 each second; exits 1 if memory grows after warm-up or a witness frame is lost.")
        {
            duration, connections, rate, noHostile, churnRounds, resetsPerRound, sharedPool, maxGrowth, output, data,
        };
        command.SetRun(
            parsed => new SoakSettings
            {
                Duration = ParseDuration(parsed.GetValue(duration)!),
                Connections = parsed.GetValue(connections),
                Rate = parsed.GetValue(rate),
                Hostile = !parsed.GetValue(noHostile),
                ChurnRounds = parsed.GetValue(churnRounds),
                ResetsPerRound = parsed.GetValue(resetsPerRound),
                SharedArrayPool = parsed.GetValue(sharedPool),
                MaxGrowth = parsed.GetValue(maxGrowth),
                Output = OutputFiles.CheckFolder(parsed.GetValue(output)!, "--output"),
                DataPath = OutputFiles.CheckFile(parsed.GetValue(data), "--data"),
                Command = CommandText.Of(parsed),
            },
            settings => RunAsync(settings, CancellationToken.None));
        return command;
    }

    /// <summary>Runs a soak, writes soak.json and soak.html, prints the verdict; 0 when it passed, 1 when it did not.</summary>
    public static async Task<int> RunAsync(SoakSettings settings, CancellationToken cancellationToken)
    {
        var conditions = RunConditions.Start(settings.Command);
        var result = await new SoakRunner(settings).RunAsync(cancellationToken);
        var provenance = conditions.Finish();
        Directory.CreateDirectory(settings.Output);
        if (settings.DataPath is not null)
        {
            ResultFileWriter.Write(settings.DataPath, SoakResultFile.Build(result, provenance));
            Console.WriteLine($"data: {settings.DataPath}");
        }

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

        return verdict.Passed ? ExitCode.Done : ExitCode.Failed;
    }

    /// <summary>Reads 90, 90s, 15m or 1h.</summary>
    private static TimeSpan ParseDuration(string text)
    {
        var unit = text.Length > 0 ? text[^1] : ' ';
        var number = char.IsDigit(unit) ? text : text[..^Math.Min(1, text.Length)];
        if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || value <= 0)
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
