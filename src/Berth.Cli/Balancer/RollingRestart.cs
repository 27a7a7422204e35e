using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Berth.Connections;

namespace Berth.Cli.Balancer;

/// <summary>
/// HAProxy fronting two <c>berth serve</c> processes while clients keep echoing through it, and the two backends
/// restarted one after the other: each gets SIGTERM, fails its health check, drains and exits, and is started again
/// on the same ports; the next one goes only once the balancer has marked it up again.
/// </summary>
internal static class RollingRestart
{
    private static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(60);

    public static async Task<RollingRestartResult> RunAsync(RollingRestartSettings settings, Action<string> progress)
    {
        await using var a = await Backend.StartAsync("a", settings.DrainDelay).ConfigureAwait(false);
        await using var b = await Backend.StartAsync("b", settings.DrainDelay).ConfigureAwait(false);
        await using var haproxy = await HaproxyProcess.StartAsync([a, b]).ConfigureAwait(false);
        progress($"haproxy on 127.0.0.1:{haproxy.Port} fronting a (127.0.0.1:{a.Port}) and b (127.0.0.1:{b.Port})");

        var options = new BerthClientOptions
        {
            Port = haproxy.Port,
            Reconnect = true,
            ReconnectMaxDelay = TimeSpan.FromSeconds(1),
        };
        var clients = Enumerable.Range(0, settings.Clients).Select(i => new LedgerClient(i, settings.Window, options)).ToArray();
        using var pacing = new CancellationTokenSource();
        var pacer = Task.CompletedTask;
        var restarts = new List<BackendRestart>();
        try
        {
            foreach (var client in clients)
            {
                await client.Client.ConnectAsync().ConfigureAwait(false);
            }

            pacer = PaceAsync(clients, settings.SendInterval, pacing.Token);
            await UntilAsync(() => clients.All(c => c.Echoed > 0), "every client echoing").ConfigureAwait(false);
            progress($"{clients.Length} clients echoing through haproxy");

            restarts.Add(await RestartAsync(a, b, haproxy, clients, progress).ConfigureAwait(false));
            restarts.Add(await RestartAsync(b, a, haproxy, clients, progress).ConfigureAwait(false));

            foreach (var client in clients)
            {
                client.StopSending();
            }

            await UntilAsync(() => clients.All(c => c.Outstanding == 0), "every echo back or failed").ConfigureAwait(false);
        }
        finally
        {
            await pacing.CancelAsync().ConfigureAwait(false);
            await pacer.ConfigureAwait(false);
            foreach (var client in clients)
            {
                await client.Client.DisposeAsync().ConfigureAwait(false);
            }
        }

        return new RollingRestartResult(
            clients.Length,
            clients.Sum(c => c.Sent),
            clients.Sum(c => c.Echoed),
            clients.Sum(c => c.Failed),
            clients.Sum(c => c.Unexpected),
            clients.Sum(c => (long)c.Outstanding),
            clients.Count(c => c.Away),
            [.. clients.SelectMany(c => c.Reconnections)],
            restarts);
    }

    private static async Task<BackendRestart> RestartAsync(Backend leaving, Backend staying, HaproxyProcess haproxy, LedgerClient[] clients, Action<string> progress)
    {
        var started = Stopwatch.GetTimestamp();
        var mark = haproxy.Process.LineCount;
        leaving.Process.Signal("TERM");
        await haproxy.ServerWentAsync(leaving.Name, "DOWN", mark).ConfigureAwait(false);

        // Read at the moment the balancer's verdict arrived: the backend must still be accepting (draining, not stopping).
        var downBeforeStopping = !leaving.Process.Output.Contains(": stopping,", StringComparison.Ordinal);
        progress($"{leaving.Name}: SIGTERM; haproxy marked it down {(downBeforeStopping ? "before" : "AFTER")} it stopped accepting");

        var probe = await ProbeAsync(haproxy.Port).ConfigureAwait(false);
        await staying.ConnectionFromAsync(probe).WaitAsync(HangGuard).ConfigureAwait(false);
        var exitCode = await leaving.Process.ExitedAsync().ConfigureAwait(false);
        var output = leaving.Process.Output;
        var wentToOther = !output.Contains($" from {probe}", StringComparison.Ordinal);
        var buffersReturned = output.Contains("pooled buffers outstanding: 0", StringComparison.Ordinal);
        progress($"{leaving.Name}: exited {exitCode}; a connection opened during its drain went to {(wentToOther ? staying.Name : leaving.Name)}");

        await UntilAsync(() => !clients.Any(c => c.Away), $"every client back after {leaving.Name} stopped").ConfigureAwait(false);
        var moved = clients.SelectMany(c => c.Reconnections).Where(r => r.LostAt >= started).ToArray();
        var longest = moved.Length == 0 ? TimeSpan.Zero : moved.Max(r => r.Took);
        progress($"{leaving.Name}: {moved.Length} client(s) moved to {staying.Name}, the longest back in {longest.TotalMilliseconds:0} ms");

        var upMark = haproxy.Process.LineCount;
        await leaving.RestartAsync().ConfigureAwait(false);
        await haproxy.ServerWentAsync(leaving.Name, "UP", upMark).ConfigureAwait(false);
        progress($"{leaving.Name}: restarted; haproxy marked it up");
        return new BackendRestart(leaving.Name, downBeforeStopping, wentToOther, exitCode, buffersReturned, moved.Length, longest);
    }

    /// <summary>A new connection through the balancer: one frame echoed, then closed; returns the address the backend sees.</summary>
    internal static async Task<IPEndPoint> ProbeAsync(int port)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port)).WaitAsync(HangGuard).ConfigureAwait(false);
        byte[] frame = [4, 0, 0, 0, (byte)'p', (byte)'r', (byte)'o', (byte)'b'];
        await socket.SendAsync(frame).ConfigureAwait(false);
        var echo = new byte[frame.Length];
        for (var read = 0; read < echo.Length;)
        {
            var n = await socket.ReceiveAsync(echo.AsMemory(read)).AsTask().WaitAsync(HangGuard).ConfigureAwait(false);
            read += n > 0 ? n : throw new IOException("the probe's connection closed before its echo");
        }

        if (!echo.AsSpan().SequenceEqual(frame))
        {
            throw new IOException("the probe's echo differs from its frame");
        }

        return (IPEndPoint)socket.LocalEndPoint!;
    }

    private static async Task PaceAsync(LedgerClient[] clients, TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                foreach (var client in clients)
                {
                    client.SendNext();
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The run is over.
        }
    }

    /// <summary>Checks <paramref name="condition"/> every few milliseconds until it holds; the limit only guards against a hang.</summary>
    private static async Task UntilAsync(Func<bool> condition, string what)
    {
        var started = Stopwatch.GetTimestamp();
        while (!condition())
        {
            if (Stopwatch.GetElapsedTime(started) > HangGuard)
            {
                throw new TimeoutException($"not reached within {HangGuard.TotalSeconds:0} s: {what}");
            }

            await Task.Delay(10).ConfigureAwait(false);
        }
    }
}
