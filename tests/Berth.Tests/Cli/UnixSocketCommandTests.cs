namespace Berth.Tests.Cli;

/// <summary><c>berth serve --unix</c> and <c>berth load --unix</c> as their own processes.</summary>
public sealed class UnixSocketCommandTests
{
    [Fact]
    public async Task LoadEchoesThroughServeOverAUnixSocketAndStopRemovesTheFile()
    {
        var directory = Directory.CreateTempSubdirectory("berth-unix-cli-");
        try
        {
            var path = Path.Combine(directory.FullName, "serve.sock");
            await using var serve = new BerthProcess("serve", "--unix", path);
            Assert.Equal($"listening on unix:{path}", (await serve.LineStartingWithAsync("listening on ")).Trim());

            await using (var load = new BerthProcess("load", "--unix", path, "--connections", "2", "--warmup", "0", "--duration", "0.5"))
            {
                Assert.True(await load.ExitedAsync() == 0, await load.Error);
                Assert.Contains($"against unix:{path}", load.Output);
            }

            await serve.SignalAsync("TERM");
            Assert.True(await serve.ExitedAsync() == 0, await serve.Error);
            Assert.False(File.Exists(path));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }
}
