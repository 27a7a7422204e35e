using System.CommandLine;
using System.Globalization;
using Berth.Results;

namespace Berth.Cli.Balancer;

/// <summary><c>berth rolling-restart</c>: its options, the run, and what it prints and writes.</summary>
internal static class RollingRestartCommand
{
    public static Command Create()
    {
        var clients = OptionValues.Int("--clients", "Clients echoing through haproxy, each a BerthClient with Reconnect on.", 100, 1, 5_000);
        var window = OptionValues.Int("--window", "Frames each client keeps in flight at most.", 4, 1, 1_000);
        var interval = OptionValues.Double("--send-interval", "Each client sends its next frame (window permitting) this often.", 0.02, 0.001, 10, "SECONDS");
        var drainDelay = OptionValues.Double("--drain-delay", "The backends' 'berth serve --drain-delay': how long each keeps serving after its health check fails.", 2, 0, 60, "SECONDS");
        var data = OptionValues.OptionalText("--data", "Also write the ledger as a result file (docs/RESULTS.md), e.g. docs/data/deploy/rolling-restart.json.", "FILE");
        var command = new Command("rolling-restart", "HAProxy (installed: bash scripts/setup.sh --balancer) fronting two 'berth serve' processes with PROXY v2 and health checks, clients echoing through it, both backends restarted one after the other; prints the clients' ledger (frames sent, echoed, failed) and the longest time to reconnect; exits 1 if a frame went unaccounted for.")
        {
            clients, window, interval, drainDelay, data,
        };
        command.SetRun(
            parsed => (Settings: new RollingRestartSettings(
                parsed.GetValue(clients),
                parsed.GetValue(window),
                TimeSpan.FromSeconds(parsed.GetValue(interval)),
                TimeSpan.FromSeconds(parsed.GetValue(drainDelay)),
                OutputFiles.CheckFile(parsed.GetValue(data), "--data")), Command: CommandText.Of(parsed)),
            run => RunAsync(run.Settings, run.Command));
        return command;
    }

    private static async Task<int> RunAsync(RollingRestartSettings settings, string commandText)
    {
        var conditions = RunConditions.Start(commandText);
        var result = await RollingRestart.RunAsync(settings, Console.WriteLine);
        var provenance = conditions.Finish();
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"ledger: {result.Sent} sent, {result.Echoed} echoed, {result.Failed} failed, {result.Unexpected} unexpected, {result.Outstanding} unaccounted; {result.Reconnections.Count} reconnections, the longest {result.LongestReconnect.TotalMilliseconds:0} ms; {result.ClientsStillAway} client(s) not back"));
        if (settings.DataPath is not null)
        {
            ResultFileWriter.Write(settings.DataPath, RollingRestartResultFile.Build(result, provenance));
            Console.WriteLine($"data: {settings.DataPath}");
        }

        Console.WriteLine(result.Held ? "rolling restart held" : "rolling restart FAILED");
        return result.Held ? ExitCode.Done : ExitCode.Failed;
    }
}
