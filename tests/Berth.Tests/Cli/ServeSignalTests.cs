using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>Runs <c>berth serve</c> and <c>berth bench</c> as their own processes, since a signal cannot be sent to a command running in-process.</summary>
public sealed partial class ServeSignalTests
{
    [Fact]
    public async Task SigtermStopsServeWithExitCodeZero()
    {
        await using var serve = new BerthProcess("serve", "--port", "0");
        var port = await ListeningPortAsync(serve);
        using (var client = new RawClient(new IPEndPoint(IPAddress.Loopback, port)))
        {
            client.SendFrame("ping"u8);
            Assert.Equal("ping"u8.ToArray(), client.ReceiveFrame());
        }

        await serve.SignalAsync("TERM");
        Assert.True(await serve.ExitedAsync() == 0, await serve.Error);
        Assert.Contains("stopping", serve.Output);
        Assert.Contains("stopped; pooled buffers outstanding: 0", serve.Output);
    }

    /// <summary>
    /// An idle client keeps the first, orderly stop waiting for the whole shutdown timeout (here ten minutes, far past
    /// the test's patience); the second signal must end it at once.
    /// </summary>
    [Fact]
    public async Task ASecondSignalStopsServeAtOnceDespiteAnIdleClient()
    {
        await using var serve = new BerthProcess("serve", "--port", "0", "--shutdown-timeout", "600");
        var port = await ListeningPortAsync(serve);
        using var idle = new RawClient(new IPEndPoint(IPAddress.Loopback, port));
        idle.SendFrame("ping"u8);
        Assert.Equal("ping"u8.ToArray(), idle.ReceiveFrame());

        await serve.SignalAsync("TERM");
        Assert.Contains("closing 1 connection(s)", await serve.LineStartingWithAsync("SIGTERM: stopping"));
        await serve.SignalAsync("TERM");
        Assert.True(await serve.ExitedAsync() == 0, await serve.Error);
        Assert.Contains("stopped; pooled buffers outstanding: 0", serve.Output);
    }

    [Fact]
    public async Task InterruptedBenchWritesTheReportOfTheFinishedCells()
    {
        var directory = Directory.CreateTempSubdirectory("berth-bench-stop-");
        try
        {
            await using var bench = new BerthProcess("bench", "--duration", "0.3", "--warmup", "0", "--out", directory.FullName);
            await bench.LineStartingWithAsync("  64 B x 1 conn");
            await bench.SignalAsync("TERM");
            Assert.Equal(1, await bench.ExitedAsync());
            Assert.Contains("interrupted after", await bench.Error);
            var html = File.ReadAllText(Path.Combine(directory.FullName, "index.html"));
            Assert.Contains("64 B x 1 conn", html);
            Assert.DoesNotContain("65536 B x 100 conn", html);
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    internal static async Task<int> ListeningPortAsync(BerthProcess serve)
    {
        var line = await serve.LineStartingWithAsync("listening on ");
        var match = ListeningOn().Match(line);
        Assert.True(match.Success, line);
        var port = int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        Assert.NotEqual(0, port);
        return port;
    }

    [GeneratedRegex(@"^listening on \S+:(\d+)$")]
    private static partial Regex ListeningOn();
}
