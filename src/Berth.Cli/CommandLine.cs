using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Invocation;
using System.Reflection;

namespace Berth.Cli;

/// <summary>
/// The <c>berth</c> command line: every command is registered in <see cref="Commands"/>; parsing, help, suggestions
/// and exit codes are the same for all of them.
/// </summary>
internal static class CommandLine
{
    public const string ExitCodes = "Exit codes: 0 done, 1 failed at run time (or interrupted), 2 bad usage (nothing was run).";

    /// <summary>The version from the assembly's informational version (the package version and its commit).</summary>
    public static string Version { get; } =
        typeof(CommandLine).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    /// <summary>Every command, in the order help lists them. A new command is one line here.</summary>
    private static IEnumerable<Command> Commands() =>
    [
        Tcp.BenchCommand.Create(),
        Tcp.ServeCommand.Create(),
        Tcp.LoadCommand.Create(),
        Soak.SoakCommand.Create(),
        Balancer.RollingRestartCommand.Create(),
        Zmq.ZmqCommand.Create(),
        Aot.AotVsJitCommand.Create(),
    ];

    public static async Task<int> RunAsync(string[] args)
    {
        var parsed = Build().Parse(args);
        if (parsed.Action is ParseErrorAction errors)
        {
            // The library's messages and typo suggestions, all on standard error, without the full help.
            errors.ShowHelp = false;
            parsed.Invoke(new InvocationConfiguration { Output = Console.Error, Error = Console.Error });
            Console.Error.WriteLine($"Run '{CommandPath(parsed.CommandResult.Command)} --help' for usage.");
            return ExitCode.Usage;
        }

        return await parsed.InvokeAsync(new InvocationConfiguration
        {
            Output = Console.Out,
            Error = Console.Error,
            EnableDefaultExceptionHandler = false,

            // Each command handles its own signals (StopSignals): bench writes a partial report, serve drains.
            ProcessTerminationTimeout = null,
        });
    }

    /// <summary>The whole command tree, also for tests that walk it.</summary>
    public static Command Build()
    {
        // A plain command named "berth" rather than RootCommand, whose name would be the assembly's (Berth.Cli).
        var root = new Command("berth", $"Berth: framed TCP and ZeroMQ messaging, measured. {ExitCodes}")
        {
            new HelpOption(),
            new VersionOption { Action = new PrintVersion() },
        };
        foreach (var command in Commands())
        {
            root.Add(command);
        }

        return root;
    }

    /// <summary>
    /// Wraps a command's work so that every expected failure is one line on standard error with the command's name:
    /// <see cref="UsageException"/> exits with 2, anything else with 1.
    /// </summary>
    public static void SetRun<TSettings>(this Command command, Func<ParseResult, TSettings> settings, Func<TSettings, Task<int>> run) =>
        command.SetAction(async parsed =>
        {
            try
            {
                return await run(settings(parsed));
            }
            catch (UsageException e)
            {
                await Console.Error.WriteLineAsync($"{CommandPath(command)}: {e.Message}");
                return ExitCode.Usage;
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                await Console.Error.WriteLineAsync($"{CommandPath(command)}: {e.Message}");
                return ExitCode.Failed;
            }
        });

    private static string CommandPath(Command command)
    {
        var names = new List<string>();
        for (Command? current = command; current is not null; current = current.Parents.OfType<Command>().FirstOrDefault())
        {
            names.Add(current.Name);
        }

        names.Reverse();
        return string.Join(' ', names);
    }

    private sealed class PrintVersion : SynchronousCommandLineAction
    {
        public override bool ClearsParseErrors => true;

        public override int Invoke(ParseResult parseResult)
        {
            parseResult.InvocationConfiguration.Output.WriteLine(Version);
            return ExitCode.Done;
        }
    }
}
