using System.Buffers;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Runtime;
using Berth.Buffers;
using Berth.Cli.Load;
using Berth.Framing;
using Berth.Connections;

namespace Berth.Cli.Soak;

/// <summary>
/// Runs a soak: an in-process echo server under steady echo load, graceful churn and the hostile peers, with a witness,
/// sampled once a second; then, when asked, rounds of pure connect-and-reset churn. The server, the load and the
/// attackers share one process, so its figures cover all of them: a leak anywhere shows.
/// </summary>
internal sealed class SoakRunner(SoakSettings settings)
{
    private readonly List<SoakSample> _samples = [];
    private readonly Stopwatch _clock = new();
    private long _lastAllocated;
    private long _churned;
    private long _churnFailures;

    public async Task<SoakResult> RunAsync(CancellationToken cancellationToken)
    {
        var serverOptions = new BerthServerOptions
        {
            EndPoint = new IPEndPoint(IPAddress.Loopback, 0),
            Format = LengthFieldFormat.Berth.WithMaxBodyLength(settings.MaxFrame),
            IdleTimeout = TimeSpan.FromSeconds(30),
        };
        if (settings.SharedArrayPool)
        {
            serverOptions.BufferPool = new BufferPool(ArrayPool<byte>.Shared);
        }

        await using var server = new BerthServer(serverOptions, new EchoHandler());
        server.Start();
        _clock.Start();
        _lastAllocated = GC.GetTotalAllocatedBytes();

        var witness = new Witness(server.EndPoint, settings.MaxFrame);
        var hostile = new HostilePeers(server.EndPoint, settings.MaxFrame);
        var load = await StartLoadAsync(server.EndPoint, cancellationToken);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var background = new List<Task> { witness.RunAsync(stop.Token), GracefulChurnAsync(server.EndPoint, stop.Token) };
        if (settings.Hostile)
        {
            background.Add(hostile.RunAsync(stop.Token));
        }

        Console.WriteLine("second  rss MB  gc heap MB  handles  threads  conns  echoes/s  witness p99 ms  phase");
        await SampleAsync(server, load.Progress, witness, settings.Duration, "load", cancellationToken);
        await stop.CancelAsync();
        load.Window.End();
        await load.Sessions.DisposeAsync();
        await Task.WhenAll(background);

        var rounds = new List<ChurnRound>();
        for (var round = 1; round <= settings.ChurnRounds && !cancellationToken.IsCancellationRequested; round++)
        {
            var resets = await Task.Run(() => ResetChurn.Run(server.EndPoint, settings.ResetsPerRound, 8, cancellationToken), CancellationToken.None);
            await SettleAsync(server);
            var sample = Sample(server, new LoadProgress(), witness, $"churn round {round}");
            rounds.Add(new ChurnRound(round, resets, sample.ResidentBytes, sample.GcHeapBytes, sample.GcCommittedBytes, server.BufferPool.Outstanding));
            Console.WriteLine($"round {round}: {resets} resets; rss {Mb(sample.ResidentBytes):F1} MB, gc heap {Mb(sample.GcHeapBytes):F1} MB, committed {Mb(sample.GcCommittedBytes):F1} MB");
        }

        await SettleAsync(server);
        var settled = Sample(server, new LoadProgress(), witness, "settled");
        GCSettings.LargeObjectHeapCompactionMode = GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        var compacted = Sample(server, new LoadProgress(), witness, "after aggressive GC");
        return new SoakResult(settings, _samples, rounds, settled, compacted)
        {
            WitnessFrames = witness.Frames,
            WitnessLost = witness.Lost,
            WitnessCorrupted = witness.Corrupted,
            LoadErrors = load.Progress.Errors,
            Churned = _churned,
            ChurnFailures = _churnFailures,
            Attacks = hostile.Counts.ToDictionary(),
            PooledBuffersOutstanding = server.BufferPool.Outstanding,
        };
    }

    private static double Mb(long bytes) => bytes / 1048576.0;

    private async Task SampleAsync(BerthServer server, LoadProgress progress, Witness witness, TimeSpan duration, string phase, CancellationToken token)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        var until = _clock.Elapsed + duration;
        var lastEchoes = progress.Messages;
        while (_clock.Elapsed < until && await timer.WaitForNextTickAsync(token))
        {
            var sample = Sample(server, progress, witness, _clock.Elapsed < settings.WarmUp ? "warm-up" : phase, lastEchoes);
            lastEchoes = progress.Messages;
            Console.WriteLine($"{sample.Second,6:F0}  {Mb(sample.ResidentBytes),6:F1}  {Mb(sample.GcHeapBytes),10:F1}  {sample.Handles,7}  {sample.Threads,7}  {sample.Connections,5}  {sample.EchoesPerSecond,8}  {sample.WitnessP99Microseconds / 1000,14:F2}  {sample.Phase}");
        }
    }

    private SoakSample Sample(BerthServer server, LoadProgress progress, Witness witness, string phase, long lastEchoes = 0)
    {
        var allocated = GC.GetTotalAllocatedBytes();
        var sample = new SoakSample(
            Math.Round(_clock.Elapsed.TotalSeconds, 1),
            ProcessFigures.ResidentBytes(),
            GC.GetTotalMemory(forceFullCollection: false),
            GC.GetGCMemoryInfo().TotalCommittedBytes,
            allocated - _lastAllocated,
            ProcessFigures.OpenHandles(),
            ProcessFigures.Threads(),
            server.ConnectionCount,
            server.BufferPool.Outstanding,
            progress.Messages - lastEchoes,
            witness.Frames,
            witness.TakeSecondP99Microseconds(),
            phase);
        _lastAllocated = allocated;
        _samples.Add(sample);
        return sample;
    }

    /// <summary>Waits (at most 10 s) until the server has let go of every connection, then a moment for the runtime.</summary>
    private static async Task SettleAsync(BerthServer server)
    {
        for (var i = 0; i < 100 && server.ConnectionCount > 0; i++)
        {
            await Task.Delay(100);
        }

        await Task.Delay(TimeSpan.FromSeconds(2));
    }

    /// <summary>Connections that each echo one frame, check it and close cleanly, one after another.</summary>
    private async Task GracefulChurnAsync(IPEndPoint server, CancellationToken stop)
    {
        var frame = new byte[4 + 32];
        frame[0] = 32;
        var echo = new byte[frame.Length];
        while (!stop.IsCancellationRequested)
        {
            try
            {
                using var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                await socket.ConnectAsync(server, stop);
                await socket.SendAsync(frame, SocketFlags.None, stop);
                var got = 0;
                while (got < echo.Length)
                {
                    var n = await socket.ReceiveAsync(echo.AsMemory(got), SocketFlags.None, stop);
                    got += n > 0 ? n : throw new SocketException((int)SocketError.ConnectionReset);
                }

                if (!echo.AsSpan().SequenceEqual(frame))
                {
                    throw new SocketException((int)SocketError.ProtocolNotSupported);
                }

                Interlocked.Increment(ref _churned);
                await Task.Delay(20, stop);
            }
            catch (OperationCanceledException)
            {
                return;
            }
            catch (SocketException)
            {
                Interlocked.Increment(ref _churnFailures);
            }
        }
    }

    private async Task<RunningLoad> StartLoadAsync(IPEndPoint server, CancellationToken token)
    {
        var loadSettings = new LoadSettings
        {
            Host = server.Address.ToString(),
            Port = server.Port,
            Connections = settings.Connections,
            Rate = settings.Rate,
            SizeMin = 16,
            SizeMax = 1024,
        };
        var window = new LoadWindow();
        var progress = new LoadProgress();
        var sessions = await LoadSessions.OpenAsync(loadSettings, window, progress, token);
        sessions.Start();
        window.StartMeasuring();
        return new RunningLoad(window, progress, sessions);
    }

    private sealed record RunningLoad(LoadWindow Window, LoadProgress Progress, LoadSessions Sessions);
}
