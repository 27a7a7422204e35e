using System.Diagnostics;
using System.Net;
using System.Text.RegularExpressions;
using Berth.Tests.Tcp;

namespace Berth.Tests.Cli;

/// <summary>Runs <c>berth serve</c> as its own process, since a signal cannot be sent to a command running in-process.</summary>
public sealed partial class ServeSignalTests
{
    [Fact]
    public async Task SigtermStopsServeWithExitCodeZero()
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { Path.Combine(AppContext.BaseDirectory, "Berth.Cli.dll"), "serve", "--port", "0" })
        {
            start.ArgumentList.Add(argument);
        }

        using var serve = Process.Start(start)!;
        var error = serve.StandardError.ReadToEndAsync();
        try
        {
            var line = await ReadListeningLineAsync(serve.StandardOutput).Within();
            var match = ListeningOn().Match(line);
            Assert.True(match.Success, line);
            var port = int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            Assert.NotEqual(0, port);

            using (var client = new RawClient(new IPEndPoint(IPAddress.Loopback, port)))
            {
                client.SendFrame("ping"u8);
                Assert.Equal("ping"u8.ToArray(), client.ReceiveFrame());
            }

            using (var kill = Process.Start("kill", ["-TERM", serve.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
            {
                await kill.WaitForExitAsync().Within();
                Assert.Equal(0, kill.ExitCode);
            }

            var output = serve.StandardOutput.ReadToEndAsync();
            await serve.WaitForExitAsync().Within();
            Assert.True(serve.ExitCode == 0, $"exit {serve.ExitCode}: {await error.Within()}");
            Assert.Contains("stopped; pooled buffers outstanding: 0", await output.Within());
        }
        finally
        {
            if (!serve.HasExited)
            {
                serve.Kill(entireProcessTree: true);
            }
        }
    }

    private static async Task<string> ReadListeningLineAsync(StreamReader output)
    {
        while (await output.ReadLineAsync() is { } line)
        {
            if (line.StartsWith("listening on ", StringComparison.Ordinal))
            {
                return line;
            }
        }

        throw new InvalidOperationException("berth serve closed its output before it was listening.");
    }

    [GeneratedRegex(@"^listening on \S+:(\d+)$")]
    private static partial Regex ListeningOn();
}
