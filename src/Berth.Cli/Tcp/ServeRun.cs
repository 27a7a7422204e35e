using System.Net.Sockets;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Cli.Tcp;

/// <summary>
/// Runs the echo server until the first Ctrl-C or SIGTERM, then stops in order: connections flush and close within
/// the server's shutdown timeout. A second signal aborts what is left at once.
/// </summary>
internal static class ServeRun
{
    public static async Task<int> RunAsync(ServeSettings settings)
    {
        var serverOptions = new BerthServerOptions
        {
            EndPoint = settings.EndPoint,
            Format = LengthFieldFormat.Berth.WithMaxBodyLength(settings.MaxFrame),
            MaxConnections = settings.MaxConnections,
            IdleTimeout = settings.IdleTimeout,
            FrameTimeout = settings.FrameTimeout,
            SlowConsumerTimeout = settings.SlowConsumerTimeout,
            ShutdownTimeout = settings.ShutdownTimeout,
            HandlerScheduling = settings.Scheduling,
        };
        var server = new BerthServer(serverOptions, new EchoHandler());
        try
        {
            server.Start();
        }
        catch (SocketException e)
        {
            await server.StopAsync();
            throw new IOException($"cannot listen on {settings.EndPoint}: {e.Message}", e);
        }

        using var signals = new StopSignals(signal => Console.WriteLine(
            $"{signal}: stopping, closing {server.ConnectionCount} connection(s) (up to {serverOptions.ShutdownTimeout.TotalSeconds:0.#} s; Ctrl-C again to stop at once)"));
        Console.WriteLine($"listening on {server.EndPoint.Address}:{server.EndPoint.Port}");
        try
        {
            await Task.Delay(Timeout.Infinite, signals.Stopping);
        }
        catch (OperationCanceledException)
        {
            // The first signal: stop below.
        }

        await server.StopAsync(signals.StopNow);
        Console.WriteLine($"stopped; pooled buffers outstanding: {serverOptions.BufferPool.Outstanding}");
        return ExitCode.Done;
    }
}
