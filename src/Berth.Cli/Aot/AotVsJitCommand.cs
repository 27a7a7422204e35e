using System.CommandLine;

namespace Berth.Cli.Aot;

/// <summary><c>berth aot-vs-jit</c>: its options and how they map onto <see cref="AotVsJitSettings"/>.</summary>
internal static class AotVsJitCommand
{
    public static Command Create()
    {
        var native = RequiredFile("--native", "The berth executable of a NativeAOT publish (bench/aot-vs-jit.sh publishes one).");
        var jit = RequiredFile("--jit", "The berth launcher of a framework-dependent publish, as the tool ships.");
        var variants = new Option<string[]>("--native-variant")
        {
            Description = "Another NativeAOT build, as NAME=FILE (e.g. 'NativeAOT, Speed=artifacts/aot-vs-jit/native-speed/berth'), run in the same rounds and judged against the same targets; repeat for more.",
            HelpName = "NAME=FILE",
            DefaultValueFactory = _ => [],
        };
        var readyToRun = OptionValues.OptionalText("--ready-to-run", "The berth launcher of a framework-dependent ReadyToRun publish; without it the JIT build is the only anchor.", "FILE");
        var rounds = OptionValues.Int("--rounds", "Rounds; each starts every build once, in an order that rotates from round to round.", 5, 1, 100);
        var idle = OptionValues.Double("--idle", "Seconds a server sits idle after its listening line before its RSS is read.", 2, 0, 60, "SECONDS");
        var warmup = OptionValues.Double("--warmup", "Seconds of load before the measured window.", 1, 0, 3600, "SECONDS");
        var duration = OptionValues.Double("--duration", "Seconds of load measured.", 4, 0.1, 3600, "SECONDS");
        var data = OptionValues.OptionalText("--data", "Also write the result file (docs/RESULTS.md) here, e.g. docs/data/deploy/aot-vs-jit.json.", "FILE");
        var reproduce = OptionValues.OptionalText("--command", "The command recorded in the result file as the one that reproduces it [default: this command line].", "TEXT");
        var command = new Command(
            "aot-vs-jit",
            "berth serve from a NativeAOT build against JIT builds, interleaved in rounds: time from process start to the listening line, idle RSS, echo msg/s under 64 B x 100 connections from the C load generator, and size on disk (needs a source checkout and gcc).")
        {
            native, variants, jit, readyToRun, rounds, idle, warmup, duration, data, reproduce,
        };
        command.SetRun(
            parsed =>
            {
                List<AotBuild> builds =
                [
                    new(AotBuild.Native, Executable(parsed.GetRequiredValue(native), "--native"), IsNative: true),
                    .. parsed.GetRequiredValue(variants).Select(Variant),
                    new(AotBuild.Jit, Executable(parsed.GetRequiredValue(jit), "--jit"), IsNative: false),
                ];
                if (parsed.GetValue(readyToRun) is { } path)
                {
                    builds.Add(new(AotBuild.ReadyToRun, Executable(path, "--ready-to-run"), IsNative: false));
                }

                if (builds.Select(b => b.Name).Distinct(StringComparer.Ordinal).Count() != builds.Count)
                {
                    throw new UsageException("every build needs its own name (option '--native-variant')");
                }

                return new AotVsJitSettings(
                    builds,
                    parsed.GetValue(rounds),
                    TimeSpan.FromSeconds(parsed.GetValue(idle)),
                    TimeSpan.FromSeconds(parsed.GetValue(warmup)),
                    TimeSpan.FromSeconds(parsed.GetValue(duration)),
                    OutputFiles.CheckFile(parsed.GetValue(data), "--data"),
                    parsed.GetValue(reproduce) ?? CommandText.Of(parsed));
            },
            settings => AotVsJitRun.RunAsync(settings, CancellationToken.None));
        return command;
    }

    private static Option<string> RequiredFile(string name, string description) => new(name)
    {
        Description = description,
        HelpName = "FILE",
        Required = true,
    };

    private static AotBuild Variant(string text)
    {
        var split = text.LastIndexOf('=');
        return split <= 0 || split == text.Length - 1
            ? throw new UsageException($"'{text}' is not NAME=FILE (option '--native-variant')")
            : new AotBuild(text[..split], Executable(text[(split + 1)..], "--native-variant"), IsNative: true);
    }

    private static string Executable(string path, string option) =>
        File.Exists(path) ? Path.GetFullPath(path)
        : throw new UsageException($"no such file '{path}' (option '{option}')");
}
