using Berth.Cli.Zmq;

namespace Berth.Cli;

/// <summary><c>berth zmq echo|bench</c>: a ZeroMQ echo server and the ZeroMQ benchmark beside libzmq driven from C.</summary>
internal static class ZmqCommand
{
    public static Task<int> RunAsync(string[] args)
    {
        if (args.Length == 0 || args[0] is "-h" or "--help")
        {
            Console.WriteLine("usage: berth zmq echo --type rep|router --bind ENDPOINT [--max-msg-size BYTES]");
            Console.WriteLine("       berth zmq bench [--quick] [--json FILE]");
            return Task.FromResult(args.Length == 0 ? 2 : 0);
        }

        return args[0] switch
        {
            "echo" => Task.FromResult(ZmqEchoServer.Run(args[1..])),
            "bench" => Task.FromResult(ZmqBenchmark.Run(args[1..])),
            _ => throw new UsageException($"unknown subcommand '{args[0]}' (echo or bench)"),
        };
    }
}
