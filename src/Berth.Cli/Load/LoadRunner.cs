using System.Diagnostics;
using System.Net.Sockets;

namespace Berth.Cli.Load;

/// <summary>
/// Connects the load's sockets, runs the workers through warm-up and the measurement window, and merges their
/// results. <see cref="MeasurementStarting"/> and <see cref="MeasurementEnded"/> let a caller sample its own counters
/// (the bench samples allocated bytes) at exactly the window's edges.
/// </summary>
internal sealed class LoadRunner(LoadSettings settings)
{
    private const int ConnectsInParallel = 100;

    /// <summary>A connection with frames pending and no echo for this long, or none in the whole run, counts as an error.</summary>
    private static readonly TimeSpan NoEchoLimit = TimeSpan.FromSeconds(5);

    public Action? MeasurementStarting { get; init; }

    public Action? MeasurementEnded { get; init; }

    public LoadProgress Progress { get; } = new();

    public async Task<LoadResult> RunAsync(CancellationToken cancellationToken)
    {
        var sockets = await ConnectAllAsync(cancellationToken);
        var window = new LoadWindow();
        var workers = new LoadWorker[sockets.Length];
        var running = new Task[sockets.Length];
        long ended;
        try
        {
            for (var i = 0; i < sockets.Length; i++)
            {
                workers[i] = new LoadWorker(settings, window, Progress, seed: i);
                var (worker, socket) = (workers[i], sockets[i]);
                running[i] = Task.Run(() => worker.RunAsync(socket), CancellationToken.None);
            }

            await Task.Delay(settings.Warmup, cancellationToken);
            MeasurementStarting?.Invoke();
            window.StartMeasuring();
            await Task.Delay(settings.Duration, cancellationToken);
            window.End();
            MeasurementEnded?.Invoke();
        }
        finally
        {
            if (!window.IsOver)
            {
                window.End();
            }

            ended = Stopwatch.GetTimestamp();

            // Workers blocked on a receive that will never complete end when their socket closes.
            await Task.WhenAny(Task.WhenAll(running), Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None));
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }

            await Task.WhenAll(running);
        }

        var latency = LatencyRecording.Create();
        long messages = 0, bytes = 0;
        foreach (var worker in workers)
        {
            var silence = Stopwatch.GetElapsedTime(worker.LastEcho, ended);
            if (!worker.Failed && worker.Pending > 0 && (silence >= NoEchoLimit || !worker.Echoed))
            {
                Progress.Failed($"no echo within {silence.TotalSeconds:0.#} s");
            }

            latency.Add(worker.Latency);
            messages += worker.Messages;
            bytes += worker.Bytes;
        }

        return new LoadResult(settings, messages, bytes, Progress.Errors, window.Measured, latency, Progress.ErrorsByReason());
    }

    private async Task<Socket[]> ConnectAllAsync(CancellationToken cancellationToken)
    {
        var sockets = new Socket[settings.Connections];
        try
        {
            for (var first = 0; first < sockets.Length; first += ConnectsInParallel)
            {
                var batch = Enumerable.Range(first, Math.Min(ConnectsInParallel, sockets.Length - first))
                    .Select(async i => sockets[i] = await ConnectAsync(cancellationToken));
                await Task.WhenAll(batch);
            }
        }
        catch
        {
            foreach (var socket in sockets)
            {
                socket?.Dispose();
            }

            throw;
        }

        return sockets;
    }

    private async Task<Socket> ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = settings.UnixSocketPath is null
            ? new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true }
            : new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(TimeSpan.FromSeconds(10));
            if (settings.UnixSocketPath is { } path)
            {
                await socket.ConnectAsync(new UnixDomainSocketEndPoint(path), timeout.Token);
            }
            else
            {
                await socket.ConnectAsync(settings.Host, settings.Port, timeout.Token);
            }

            return socket;
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException && !cancellationToken.IsCancellationRequested)
        {
            socket.Dispose();
            var why = e is SocketException socketError ? socketError.Message : "timed out";
            throw new IOException($"cannot connect to {settings.Target}: {why}", e);
        }
    }
}
