using Berth.Cli.Load;
using Berth.Cli.Reports;

namespace Berth.Cli.Tcp;

/// <summary><c>berth load</c>: framed echo load against any Berth-format server, with an RTT histogram.</summary>
internal static class LoadCommand
{
    public const string Summary = "load generator: berth load --port P [--host H] [--connections 50] [--size 64 | --size-min A --size-max B] [--duration 10] [--pipeline 16] [--rate PER-CONNECTION/s] [--json FILE]";

    public static readonly string[] Columns = ["workload", "msg/s", "MB/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors"];

    public static async Task<int> RunAsync(string[] args)
    {
        var options = new Options(args);
        var host = options.String("host", "127.0.0.1");
        var port = options.Int("port", 0, 1, 65535);
        if (port == 0)
        {
            throw new UsageException("option '--port' is required");
        }

        var size = options.Int("size", 64, 0, 16 * 1024 * 1024);
        var settings = new LoadSettings
        {
            Host = host,
            Port = port,
            Connections = options.Int("connections", 50, 1, 100_000),
            SizeMin = options.Int("size-min", size, 0, 16 * 1024 * 1024),
            SizeMax = options.Int("size-max", size, 0, 16 * 1024 * 1024),
            Pipeline = options.Int("pipeline", 16, 1, 4096),
            Rate = options.Double("rate", 0, 0, 1e6),
            Warmup = TimeSpan.FromSeconds(options.Double("warmup", 1, 0, 3600)),
            Duration = TimeSpan.FromSeconds(options.Double("duration", 10, 0.1, 86_400)),
        };
        var jsonPath = options.String("json", string.Empty);
        options.RejectUnknown();
        if (settings.SizeMin > settings.SizeMax)
        {
            throw new UsageException("'--size-min' must not exceed '--size-max'");
        }

        var runner = new LoadRunner(settings);
        LoadResult result;
        await using (new ProgressLine(Describe(settings), runner.Progress))
        {
            result = await runner.RunAsync(CancellationToken.None);
        }

        var table = new ReportTable(
            $"Framed echo load against {host}:{port}",
            "berth load " + string.Join(' ', args),
            MachineDescription.Current,
            Columns,
            [Row(result)]);
        TextTableWriter.Write(Console.Out, table);
        if (jsonPath.Length > 0)
        {
            JsonReportWriter.Write(jsonPath, [table]);
        }

        return result.Errors == 0 ? 0 : 1;
    }

    public static string Describe(LoadSettings settings)
    {
        var size = settings.SizeMin == settings.SizeMax ? $"{settings.SizeMin} B" : $"{settings.SizeMin}-{settings.SizeMax} B";
        var pace = settings.Rate > 0 ? $"{settings.Rate:0.##} req/s each" : $"pipeline {settings.Pipeline}";
        return $"{size} x {settings.Connections} conn, {pace}";
    }

    public static object[] Row(LoadResult result) =>
    [
        Describe(result.Settings),
        result.MessagesPerSecond,
        result.MegabytesPerSecond,
        result.P50Microseconds,
        result.P99Microseconds,
        result.P999Microseconds,
        result.Latency.Max / 1e3,
        result.Errors,
    ];
}
