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
    [InlineData("load --port 0", "option '--port' must be a whole number from 1 to 65535, not '0'")]
    [InlineData("load --port 7000 --connections many", "option '--connections' must be a whole number")]
    [InlineData("load --connections 5", "Option '--port' is required")]
    [InlineData("load --port 7000 --size-min 9 --size-max 8", "'--size-min' must not exceed '--size-max'")]
    [InlineData("serve --bogus 1", "Unrecognized command or argument '--bogus'")]
    [InlineData("bench --duration", "Required argument missing for option: '--duration'")]
    [InlineData("bench --duration -1", "option '--duration' must be a number")]
    [InlineData("zmq echo --type pub", "Argument 'pub' not recognized")]
    [InlineData("aot-vs-jit --jit berth", "Option '--native' is required")]
    [InlineData("nonsense", "Unrecognized command or argument 'nonsense'")]
    [InlineData("", "Required command was not provided")]
    public async Task BadUsageIsReportedOnStandardErrorWithExitCodeTwo(string command, string expected)
    {
        var (exit, output, error) = await RunAsync(command.Split(' ', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal(2, exit);
        Assert.Contains(expected, error);
        Assert.Contains("--help' for usage.", error);
        Assert.Empty(output);
    }

    [Theory]
    [InlineData("load --port 7000 --conections 5", "--connections")]
    [InlineData("bench --duratoin 1", "--duration")]
    [InlineData("lod --port 7000", "load")]
    public async Task AnUnknownOptionOrCommandSuggestsTheNearestOne(string command, string suggestion)
    {
        var (exit, _, error) = await RunAsync(command.Split(' '));
        Assert.Equal(2, exit);
        Assert.Contains("Did you mean", error);
        Assert.Contains(suggestion, error.Split('\n').Select(l => l.Trim()));
    }

    [Theory]
    [InlineData("", "berth [command] [options]")]
    [InlineData("bench", "berth bench [options]")]
    [InlineData("serve", "berth serve [options]")]
    [InlineData("load", "berth load [options]")]
    [InlineData("zmq", "berth zmq [command] [options]")]
    [InlineData("zmq echo", "berth zmq echo [options]")]
    [InlineData("zmq bench", "berth zmq bench [options]")]
    [InlineData("aot-vs-jit", "berth aot-vs-jit [options]")]
    public async Task EveryCommandHasHelp(string command, string usage)
    {
        foreach (var help in new[] { "--help", "-h" })
        {
            var (exit, output, error) = await RunAsync([.. command.Split(' ', StringSplitOptions.RemoveEmptyEntries), help]);
            Assert.Equal(0, exit);
            Assert.Empty(error);
            Assert.Contains(usage, output);
        }
    }

    [Fact]
    public void EveryCommandAndOptionIsDescribed()
    {
        var commands = new Stack<System.CommandLine.Command>([CommandLine.Build()]);
        var seen = 0;
        while (commands.TryPop(out var command))
        {
            Assert.False(string.IsNullOrWhiteSpace(command.Description), command.Name);
            foreach (var option in command.Options)
            {
                Assert.False(string.IsNullOrWhiteSpace(option.Description), $"{command.Name} {option.Name}");
                seen++;
            }

            foreach (var subcommand in command.Subcommands)
            {
                commands.Push(subcommand);
            }
        }

        Assert.True(seen > 20, $"only {seen} options");
    }

    [Fact]
    public async Task RootHelpDocumentsTheExitCodes()
    {
        var (_, output, _) = await RunAsync(["--help"]);
        Assert.Contains("0 done, 1 failed at run time", output);
        Assert.Contains("2 bad usage", output);
    }

    [Fact]
    public async Task VersionIsTheAssemblysInformationalVersion()
    {
        var (exit, output, _) = await RunAsync(["--version"]);
        Assert.Equal(0, exit);
        var expected = typeof(CommandLine).Assembly
            .GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false)
            .Cast<System.Reflection.AssemblyInformationalVersionAttribute>().Single().InformationalVersion;
        Assert.Equal(expected, output.Trim());
        Assert.Matches(@"^\d+\.\d+\.\d+", output);
    }

    [Theory]
    [InlineData("serve --host no-such-host.invalid --port 0")]
    [InlineData("load --host no-such-host.invalid --port 7000 --duration 0.1")]
    public async Task AnUnresolvableHostIsBadUsageForEveryCommand(string commandLine)
    {
        var (exit, _, error) = await RunAsync(commandLine.Split(' '));
        var command = commandLine.Split(' ')[0];
        Assert.Equal(2, exit);
        Assert.StartsWith($"berth {command}: cannot resolve host 'no-such-host.invalid'", error);
    }

    [Fact]
    public async Task ComparingAotWithJitNeedsBuildsThatAreThere()
    {
        var (exit, output, error) = await RunAsync(["aot-vs-jit", "--native", "/no/such/berth", "--jit", "/no/such/berth"]);
        Assert.Equal(2, exit);
        Assert.StartsWith("berth aot-vs-jit: no such file '/no/such/berth' (option '--native')", error);
        Assert.Empty(output);
    }

    [Fact]
    public async Task ANativeVariantNeedsANameAndABuild()
    {
        var (exit, output, error) = await RunAsync(["aot-vs-jit", "--native", "/bin/sh", "--jit", "/bin/sh", "--native-variant", "/bin/sh"]);
        Assert.Equal(2, exit);
        Assert.StartsWith("berth aot-vs-jit: '/bin/sh' is not NAME=FILE (option '--native-variant')", error);
        Assert.Empty(output);
    }

    [Theory]
    [InlineData("--netcoreserver")]
    [InlineData("--supersocket")]
    public async Task ComparingWithAPeerSourceFolderThatIsNotThereFailsBeforeRunning(string option)
    {
        var (exit, output, error) = await RunAsync(["bench", "--compare", option, "/no/such/folder"]);
        Assert.Equal(2, exit);
        Assert.StartsWith($"berth bench: no such folder '/no/such/folder' (option '{option}')", error);
        Assert.Empty(output);
    }

    [Theory]
    [InlineData("serve --port 0 --proxy-protocol", "option '--proxy-protocol' needs '--trusted-proxy CIDR'")]
    [InlineData("serve --port 0 --trusted-proxy 10.0.0.0/8", "options '--trusted-proxy' and '--trust-any-proxy-unsafe' need '--proxy-protocol'")]
    [InlineData("serve --port 0 --proxy-protocol --trusted-proxy 10.0.0.0/33", "option '--trusted-proxy' must be an address range")]
    public async Task AProxyProtocolWithoutSafeTrustIsBadUsage(string commandLine, string expected)
    {
        var (exit, _, error) = await RunAsync(commandLine.Split(' '));
        Assert.Equal(2, exit);
        Assert.StartsWith($"berth serve: {expected}", error);
    }

    [Fact]
    public async Task BenchIntoAnUnwritableFolderFailsBeforeRunning()
    {
        var file = Path.GetTempFileName();
        try
        {
            var (exit, output, error) = await RunAsync(["bench", "--out", Path.Combine(file, "report")]);
            Assert.Equal(2, exit);
            Assert.StartsWith("berth bench: cannot write to", error);
            Assert.Contains("'--out'", error);
            Assert.DoesNotContain("echo server", output);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public async Task LoadAgainstAServerThatNeverAnswersFailsAndSaysWhy()
    {
        using var silent = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        silent.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        silent.Listen();
        var port = ((IPEndPoint)silent.LocalEndPoint!).Port;

        var (exit, _, error) = await RunAsync(["load", "--port", port.ToString(), "--connections", "2", "--warmup", "0", "--duration", "0.3"]);
        Assert.Equal(1, exit);
        // The silence reported is each session's own, from its first request to the end: at least the 0.3 s run.
        Assert.Matches(@"2 connection\(s\): no echo within [0-9.]+ s", error);
        Assert.Contains($"nothing was echoed by 127.0.0.1:{port}", error);
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
        Assert.Contains("refused", error, StringComparison.OrdinalIgnoreCase);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Fact]
    public async Task BenchMeasuresEveryCellAndWritesTheReportFolderAndTables()
    {
        var directory = Directory.CreateTempSubdirectory("berth-bench-");
        try
        {
            var data = Path.Combine(directory.FullName, "bench.json");
            var report = Path.Combine(directory.FullName, "report");
            var (exit, output, error) = await RunAsync(["bench", "--duration", "0.2", "--warmup", "0.1", "--repeat", "2", "--out", report, "--data", data]);
            Assert.True(exit == 0, error + output);
            Assert.Contains("pooled buffers outstanding after stop: 0", output);

            var html = File.ReadAllText(Path.Combine(report, "index.html"));
            Assert.Contains("(log scale)", html);
            Assert.Contains("<svg", html);
            Assert.Contains("load average", html);
            Assert.Contains(DateTime.UtcNow.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture), html);
            Assert.Contains("<code>berth bench --duration 0.2 --warmup 0.1 --repeat 2 --out ", html);
            Assert.Contains("MB/s", html);
            Assert.Contains("Allocated per message", html);
            Assert.DoesNotContain("http://", html.Replace("http://www.w3.org/2000/svg", string.Empty, StringComparison.Ordinal));
            Assert.DoesNotContain("https://", html);
            Assert.DoesNotContain("<script", html);

            var file = Berth.Results.ResultFileReader.Read(data);
            Assert.Equal(File.ReadAllText(Path.Combine(report, "results.json")), File.ReadAllText(data));
            Assert.False(file.Provenance.Command.EndsWith(' '));
            Assert.StartsWith("berth bench --duration 0.2", file.Provenance.Command, StringComparison.Ordinal);
            var table = Assert.Single(file.Tables);
            Assert.Equal("bench", table.Id);
            // 4 sizes x 2 connection counts over TCP, and 2 sizes x 2 over a Unix socket.
            Assert.Equal(12, table.Rows.Count);
            Assert.Equal(4, table.Rows.Count(r => ((string)r[0]!).StartsWith("unix: ", StringComparison.Ordinal)));
            Assert.All(table.Rows, row =>
            {
                Assert.Contains(" conn", (string)row[0]!);
                var rate = Assert.IsType<Berth.Results.ResultRange>(row[1]);
                Assert.True(rate.Min <= rate.Median && rate.Median <= rate.Max && rate.Min > 0);
                Assert.Equal(0.0, row[^1]);
            });
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
