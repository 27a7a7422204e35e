using System.Reflection;

namespace Berth.Cli;

/// <summary>Dispatches <c>berth COMMAND ...</c> and turns every expected failure into one line and a non-zero exit code.</summary>
internal static class CommandLine
{
    private static readonly (string Name, string Summary, Func<string[], Task<int>> Run)[] Commands =
    [
        ("bench", Tcp.BenchCommand.Summary, Tcp.BenchCommand.RunAsync),
        ("serve", Tcp.ServeCommand.Summary, Tcp.ServeCommand.RunAsync),
        ("load", Tcp.LoadCommand.Summary, Tcp.LoadCommand.RunAsync),
        ("soak", Soak.SoakCommand.Summary, Soak.SoakCommand.RunAsync),
        ("zmq", "ZeroMQ echo server and benchmark", ZmqCommand.RunAsync),
    ];

    public static async Task<int> RunAsync(string[] args)
    {
        if (args is ["--version"])
        {
            Console.WriteLine(typeof(CommandLine).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion);
            return 0;
        }

        if (args.Length == 0 || args[0] is "-h" or "--help" or "help")
        {
            PrintUsage();
            return args.Length == 0 ? 2 : 0;
        }

        foreach (var command in Commands)
        {
            if (command.Name != args[0])
            {
                continue;
            }

            try
            {
                return await command.Run(args[1..]);
            }
            catch (UsageException e)
            {
                Console.Error.WriteLine($"berth {command.Name}: {e.Message}");
                return 2;
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                Console.Error.WriteLine($"berth {command.Name}: {e.Message}");
                return 1;
            }
        }

        Console.Error.WriteLine($"berth: unknown command '{args[0]}' (try 'berth --help')");
        return 2;
    }

    private static void PrintUsage()
    {
        Console.WriteLine("usage: berth COMMAND [options]");
        Console.WriteLine();
        foreach (var command in Commands)
        {
            Console.WriteLine($"  {command.Name,-8} {command.Summary}");
        }
    }
}
