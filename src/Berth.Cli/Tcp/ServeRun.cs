using System.Net.Sockets;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Cli.Tcp;

/// <summary>
/// Runs the echo server until the first Ctrl-C or SIGTERM, then stops in order: the health port closes and the server
/// keeps serving for the drain delay, then it stops accepting, and connections close (idle ones first, active ones at
/// a frame boundary), flushed within the server's shutdown timeout. A second signal aborts what is left at once.
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
            ProxyProtocol = settings.ProxyProtocol,
            UnixSocketPath = settings.UnixSocketPath,
        };
        var listensOn = settings.UnixSocketPath is { } path ? $"unix:{path}" : settings.EndPoint.ToString();
        ConnectionHandler echo = settings.Typed ? TypedEchoRouter.Create() : new EchoHandler();
        var server = new BerthServer(serverOptions, settings.LogConnections ? new ConnectionLinesHandler(echo) : echo);
        HealthListener? health = null;
        try
        {
            server.Start();
            health = settings.HealthEndPoint is { } healthEndPoint ? new HealthListener(healthEndPoint) : null;
        }
        catch (Exception e) when (e is SocketException or IOException)
        {
            await server.StopAsync();
            throw new IOException($"cannot listen on {(server.ListeningEndPoint is null ? listensOn : settings.HealthEndPoint)}: {e.Message}", e);
        }

        await using var healthCheck = health;
        var signal = "stop";
        using var signals = new StopSignals(name => signal = name);
        Console.WriteLine(settings.UnixSocketPath is null ? $"listening on {server.EndPoint.Address}:{server.EndPoint.Port}" : $"listening on {listensOn}");
        if (health is not null)
        {
            Console.WriteLine($"health on {health.EndPoint.Address}:{health.EndPoint.Port}");
        }

        try
        {
            await Task.Delay(Timeout.Infinite, signals.Stopping);
        }
        catch (OperationCanceledException)
        {
            // The first signal: drain, then stop below.
        }

        await DrainAsync(settings, health, server, signal, signals.StopNow);
        Console.WriteLine(
            $"{signal}: stopping, closing {server.ConnectionCount} connection(s) (up to {serverOptions.ShutdownTimeout.TotalSeconds:0.#} s; Ctrl-C again to stop at once)");
        await server.StopAsync(signals.StopNow);
        Console.WriteLine($"stopped; pooled buffers outstanding: {serverOptions.BufferPool.Outstanding}");
        return ExitCode.Done;
    }

    /// <summary>
    /// Fails the health check first, then keeps serving and accepting for the drain delay, so the balancer has seen
    /// the failed check and routes new connections elsewhere before this server stops accepting.
    /// </summary>
    private static async Task DrainAsync(ServeSettings settings, HealthListener? health, BerthServer server, string signal, CancellationToken stopNow)
    {
        if (health is null && settings.DrainDelay == TimeSpan.Zero)
        {
            return;
        }

        if (health is not null)
        {
            await health.FailAsync();
        }

        Console.WriteLine(
            $"{signal}: draining, health check {(health is null ? "not configured" : "refused")}; serving {server.ConnectionCount} connection(s) for {settings.DrainDelay.TotalSeconds:0.###} s before stopping (again to stop at once)");
        try
        {
            await Task.Delay(settings.DrainDelay, stopNow);
        }
        catch (OperationCanceledException)
        {
            // A second signal: stop at once.
        }
    }
}
