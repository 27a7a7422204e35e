using System.Net.Sockets;
using System.Runtime.InteropServices;
using Berth.Framing;
using Berth.Tcp;

namespace Berth.Cli.Tcp;

/// <summary><c>berth serve</c>: an echo server in the default wire format until SIGINT or SIGTERM.</summary>
internal static class ServeCommand
{
    public const string Summary = "echo server: berth serve [--host 127.0.0.1] [--port 7000] [--max-frame 1048576] [--max-connections N] [--idle-timeout SECONDS] [--scheduling inline|threadpool]";

    public static async Task<int> RunAsync(string[] args)
    {
        var options = new Options(args);
        var host = options.String("host", "127.0.0.1");
        var port = options.Int("port", 7000, 0, 65535);
        var maxFrame = options.Int("max-frame", LengthFieldFormat.DefaultMaxBodyLength, 0, int.MaxValue - 4);
        var maxConnections = options.Int("max-connections", 10_000, 1);
        var idleSeconds = options.Double("idle-timeout", 0, 0, 86_400);
        var scheduling = options.String("scheduling", "inline") switch
        {
            "inline" => HandlerScheduling.Inline,
            "threadpool" => HandlerScheduling.ThreadPool,
            var other => throw new UsageException($"'--scheduling' must be inline or threadpool, not '{other}'"),
        };
        options.RejectUnknown();

        var serverOptions = new TcpServerOptions
        {
            EndPoint = EndPoints.Resolve(host, port),
            Format = LengthFieldFormat.Berth.WithMaxBodyLength(maxFrame),
            MaxConnections = maxConnections,
            IdleTimeout = idleSeconds > 0 ? TimeSpan.FromSeconds(idleSeconds) : null,
            HandlerScheduling = scheduling,
        };
        await using var server = new TcpServer(serverOptions, new EchoHandler());
        try
        {
            server.Start();
        }
        catch (SocketException e)
        {
            throw new IOException($"cannot listen on {host}:{port}: {e.Message}", e);
        }

        var stop = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
        using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
        Console.WriteLine($"listening on {server.EndPoint.Address}:{server.EndPoint.Port}");
        await stop.Task;
        await server.StopAsync();
        Console.WriteLine($"stopped; pooled buffers outstanding: {serverOptions.BufferPool.Outstanding}");
        return 0;

        void Stop(PosixSignalContext context)
        {
            context.Cancel = true;
            stop.TrySetResult();
        }
    }
}
