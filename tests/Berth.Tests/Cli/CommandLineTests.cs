using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Berth.Cli;

namespace Berth.Tests.Cli;

[CollectionDefinition(nameof(CommandLineTests), DisableParallelization = true)]
public sealed class ConsoleCollection;

/// <summary>Runs the commands in-process with the console captured; the collection runs alone because the console is global.</summary>
[Collection(nameof(CommandLineTests))]
public sealed class CommandLineTests
{
    [Theory]
    [InlineData("load --port 0", "'--port'")]
    [InlineData("load --port 7000 --connections many", "'--connections'")]
    [InlineData("serve --bogus 1", "unknown option '--bogus'")]
    [InlineData("bench --duration", "needs a value")]
    public async Task BadOptionsPrintOneLineAndExitWithTwo(string command, string expected)
    {
        var (exit, _, error) = await RunAsync(command.Split(' '));
        Assert.Equal(2, exit);
        Assert.Contains(expected, error);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Fact]
    public async Task APortInUseIsOneClearLine()
    {
        using var taken = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        taken.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        taken.Listen();
        var port = ((IPEndPoint)taken.LocalEndPoint!).Port;

        var (exit, _, error) = await RunAsync(["serve", "--port", port.ToString()]);
        Assert.Equal(1, exit);
        Assert.StartsWith($"berth serve: cannot listen on 127.0.0.1:{port}", error);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Fact]
    public async Task AnUnreachableServerIsOneClearLine()
    {
        int port;
        using (var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
        {
            probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            port = ((IPEndPoint)probe.LocalEndPoint!).Port;
        }

        var (exit, _, error) = await RunAsync(["load", "--port", port.ToString(), "--connections", "1", "--duration", "0.1"]);
        Assert.Equal(1, exit);
        Assert.StartsWith($"berth load: cannot connect to 127.0.0.1:{port}", error);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Fact]
    public async Task BenchMeasuresEveryCellAndWritesTheReportFolderAndTables()
    {
        var directory = Directory.CreateTempSubdirectory("berth-bench-");
        try
        {
            var json = Path.Combine(directory.FullName, "tables.json");
            var report = Path.Combine(directory.FullName, "report");
            var (exit, output, error) = await RunAsync(["bench", "--duration", "0.2", "--warmup", "0.1", "--out", report, "--json", json]);
            Assert.True(exit == 0, error + output);
            Assert.Contains("pooled buffers outstanding after stop: 0", output);
            Assert.True(File.Exists(Path.Combine(report, "index.html")));
            Assert.Contains("<svg", File.ReadAllText(Path.Combine(report, "index.html")));

            using var tables = JsonDocument.Parse(File.ReadAllText(json));
            var table = Assert.Single(tables.RootElement.EnumerateArray());
            Assert.Equal(8, table.GetProperty("rows").GetArrayLength());
            foreach (var name in new[] { "title", "command", "machine", "columns" })
            {
                Assert.True(table.TryGetProperty(name, out _), name);
            }

            Assert.All(table.GetProperty("rows").EnumerateArray(), row => Assert.True(row[1].GetDouble() > 0));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    private static async Task<(int Exit, string Output, string Error)> RunAsync(string[] args)
    {
        var (output, error) = (new StringWriter(), new StringWriter());
        var (originalOut, originalError) = (Console.Out, Console.Error);
        Console.SetOut(output);
        Console.SetError(error);
        try
        {
            var exit = await CommandLine.RunAsync(args);
            return (exit, output.ToString(), error.ToString());
        }
        finally
        {
            Console.SetOut(originalOut);
            Console.SetError(originalError);
        }
    }
}
