using System.CommandLine;
using Berth.Cli.Compare;

namespace Berth.Cli.Tcp;

/// <summary><c>berth bench</c>: its options and how they map onto <see cref="BenchSettings"/>.</summary>
internal static class BenchCommand
{
    public static Command Create()
    {
        var quick = OptionValues.Flag("--quick", "Short cells (0.5 s warm-up + 1.5 s) for a first look.");
        var duration = OptionValues.OptionalDouble("--duration", "Seconds measured per cell [default: 4, or 1.5 with --quick].", 0.1, 3600, "SECONDS");
        var warmup = OptionValues.OptionalDouble("--warmup", "Seconds run before measuring each cell [default: 1, or 0.5 with --quick].", 0, 3600, "SECONDS");
        var repeat = OptionValues.Int("--repeat", "Runs of every cell, interleaved; the report shows each value's median with its min-max.", 1, 1, 100);
        var outDirectory = OptionValues.Text("--out", "Folder for the report (index.html and results.json); checked writable before the run.", "berth-report", "DIR");
        var data = OptionValues.OptionalText("--data", "Also write the result file (docs/RESULTS.md) here, e.g. docs/data/tcp/compare.json with --compare.", "FILE");
        var compare = OptionValues.Flag("--compare", "Side by side: Berth, a C epoll echo and a Kestrel echo, each its own process driven by the same C load generator, with server CPU per message and idle memory per connection (needs a source checkout and gcc; without gcc Berth runs alone).");
        var command = new Command("bench", "The main job: an in-process echo server measured per message size and connection count, with a report folder. Ctrl-C writes the report of the cells that finished.")
        {
            quick, duration, warmup, repeat, outDirectory, data, compare,
        };
        command.SetRun(
            parsed =>
            {
                var isQuick = parsed.GetValue(quick);
                return new BenchSettings(
                    TimeSpan.FromSeconds(parsed.GetValue(warmup) ?? (isQuick ? 0.5 : 1)),
                    TimeSpan.FromSeconds(parsed.GetValue(duration) ?? (isQuick ? 1.5 : 4)),
                    parsed.GetValue(repeat),
                    OutputFiles.CheckFolder(parsed.GetValue(outDirectory)!, "--out"),
                    OutputFiles.CheckFile(parsed.GetValue(data), "--data"),
                    CommandText.Of(parsed),
                    isQuick,
                    parsed.GetValue(compare));
            },
            RunAsync);
        return command;
    }

    /// <summary>The comparison when asked for and possible (it returns null without gcc), else the in-process bench.</summary>
    private static async Task<int> RunAsync(BenchSettings settings)
    {
        if (settings.Compare && await CompareRun.RunAsync(
            new CompareSettings
            {
                Quick = settings.Quick,
                Repeat = settings.Repeat,
                Warmup = settings.Warmup,
                Duration = settings.Duration,
                OutDirectory = settings.OutDirectory,
                DataPath = settings.DataPath,
                Command = settings.Command,
            },
            CancellationToken.None) is { } exitCode)
        {
            return exitCode;
        }

        return await BenchRun.RunAsync(settings);
    }
}
