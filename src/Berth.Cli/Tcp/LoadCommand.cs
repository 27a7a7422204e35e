using System.CommandLine;
using Berth.Cli.Load;

namespace Berth.Cli.Tcp;

/// <summary><c>berth load</c>: its options and how they map onto <see cref="LoadSettings"/>.</summary>
internal static class LoadCommand
{
    private const int MaxSize = 16 * 1024 * 1024;

    public static Command Create()
    {
        var host = OptionValues.Text("--host", "Server address or name.", "127.0.0.1", "HOST");
        var port = OptionValues.Int("--port", "Server port.", 0, 1, 65535);
        port.DefaultValueFactory = null;
        port.Required = true;
        var connections = OptionValues.Int("--connections", "Connections, each with its own socket.", 50, 1, 100_000);
        var size = OptionValues.Int("--size", "Body size of every frame, in bytes.", 64, 0, MaxSize);
        var sizeMin = OptionValues.OptionalInt("--size-min", "Smallest body when sizes vary (default: --size).", 0, MaxSize);
        var sizeMax = OptionValues.OptionalInt("--size-max", "Largest body when sizes vary (default: --size).", 0, MaxSize);
        var pipeline = OptionValues.Int("--pipeline", "Frames each connection keeps in flight; with --rate, the most it lets pile up.", 16, 1, 4096);
        var rate = OptionValues.Double("--rate", "Requests per second per connection on a fixed schedule (0: as fast as echoes return). Latency is timed from when each send was due.", 0, 0, 1e6, "PER-SECOND");
        var warmup = OptionValues.Double("--warmup", "Seconds run before measuring.", 1, 0, 3600, "SECONDS");
        var duration = OptionValues.Double("--duration", "Seconds measured.", 10, 0.1, 86_400, "SECONDS");
        var data = OptionValues.OptionalText("--data", "Also write the result table as a result file (docs/RESULTS.md) here.", "FILE");
        var command = new Command("load", "Framed echo load against any Berth-format server, with a latency histogram. Exits with 1 when nothing was echoed or any connection failed, naming each error.")
        {
            host, port, connections, size, sizeMin, sizeMax, pipeline, rate, warmup, duration, data,
        };
        command.Validators.Add(result =>
        {
            var fixedSize = result.GetValue(size);
            if ((result.GetValue(sizeMin) ?? fixedSize) > (result.GetValue(sizeMax) ?? fixedSize))
            {
                result.AddError("'--size-min' must not exceed '--size-max'");
            }
        });
        command.SetRun(
            parsed =>
            {
                var endPoint = EndPoints.Resolve(parsed.GetValue(host)!, parsed.GetRequiredValue(port));
                var fixedSize = parsed.GetValue(size);
                var settings = new LoadSettings
                {
                    Host = endPoint.Address.ToString(),
                    Port = endPoint.Port,
                    Connections = parsed.GetValue(connections),
                    SizeMin = parsed.GetValue(sizeMin) ?? fixedSize,
                    SizeMax = parsed.GetValue(sizeMax) ?? fixedSize,
                    Pipeline = parsed.GetValue(pipeline),
                    Rate = parsed.GetValue(rate),
                    Warmup = TimeSpan.FromSeconds(parsed.GetValue(warmup)),
                    Duration = TimeSpan.FromSeconds(parsed.GetValue(duration)),
                };
                return new LoadRequest(settings, OutputFiles.CheckFile(parsed.GetValue(data), "--data"), CommandText.Of(parsed));
            },
            LoadRun.RunAsync);
        return command;
    }
}
