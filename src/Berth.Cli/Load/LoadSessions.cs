using System.Diagnostics;
using System.Net.Sockets;
using Berth.Cli.Soak;
using Berth.Connections;
using Berth.Framing;

namespace Berth.Cli.Load;

/// <summary>
/// A run's sessions: one <see cref="BerthClient"/> each, all made from one <see cref="BerthClientOptions"/> so they
/// share its buffer pool and timer, and the memory they hold while idle, measured between connecting and the first
/// request. The sessions start sending when told and are closed together.
/// </summary>
internal sealed class LoadSessions : IAsyncDisposable
{
    private const int ConnectsInParallel = 100;

    private readonly LoadSettings _settings;
    private readonly LoadWindow _window;
    private readonly BerthClient[] _clients;
    private readonly LoadSession[] _sessions;
    private Task _pacing = Task.CompletedTask;

    private LoadSessions(LoadSettings settings, LoadWindow window, LoadProgress progress)
    {
        _settings = settings;
        _window = window;
        var payload = new byte[settings.SizeMax + LoadSession.BodyVariants - 1];
        Random.Shared.NextBytes(payload);
        var options = new BerthClientOptions
        {
            Host = settings.Host,
            Port = settings.Port,
            UnixSocketPath = settings.UnixSocketPath,
            Format = LengthFieldFormat.Berth.WithMaxBodyLength(Math.Max(settings.SizeMax, 1)),
            SendQueueLimit = Math.Max(1 << 20, settings.Pipeline * (4 + settings.SizeMax)),
        };
        _sessions = [.. Enumerable.Range(0, settings.Connections).Select(i => new LoadSession(settings, window, progress, payload, seed: i))];
        _clients = [.. _sessions.Select(session => new BerthClient(options, session))];
    }

    /// <summary>Managed heap bytes per session while connected and idle, after a full collection.</summary>
    public double IdleBytesPerConnection { get; private set; }

    /// <summary>Resident memory per session while connected and idle.</summary>
    public double IdleResidentBytesPerConnection { get; private set; }

    /// <summary>The sessions, in the order they connected.</summary>
    public IReadOnlyList<LoadSession> Sessions => _sessions;

    /// <summary>Connects every session, <see cref="ConnectsInParallel"/> at a time, and measures what they hold idle.</summary>
    /// <exception cref="IOException">A session could not connect; those already connected are closed.</exception>
    public static async Task<LoadSessions> OpenAsync(LoadSettings settings, LoadWindow window, LoadProgress progress, CancellationToken cancellationToken)
    {
        var sessions = new LoadSessions(settings, window, progress);
        try
        {
            var (heap, resident) = (GC.GetTotalMemory(forceFullCollection: true), ProcessFigures.ResidentBytes());
            for (var first = 0; first < sessions._clients.Length; first += ConnectsInParallel)
            {
                await Task.WhenAll(sessions._clients.Skip(first).Take(ConnectsInParallel).Select(client => sessions.ConnectAsync(client, cancellationToken)));
            }

            sessions.IdleBytesPerConnection = (double)(GC.GetTotalMemory(forceFullCollection: true) - heap) / settings.Connections;
            sessions.IdleResidentBytesPerConnection = (double)(ProcessFigures.ResidentBytes() - resident) / settings.Connections;
            return sessions;
        }
        catch
        {
            await sessions.DisposeAsync();
            throw;
        }
    }

    /// <summary>Starts the requests: the whole pipeline of every session, or the pacer's schedule at a rate.</summary>
    public void Start()
    {
        if (_settings.Rate > 0)
        {
            _pacing = LoadPacer.Start(_sessions, _settings.Rate, _window);
            return;
        }

        foreach (var session in _sessions)
        {
            session.StartClosedLoop();
        }
    }

    /// <summary>Once the window is over: stops the pacer and closes every connection at once, and waits for them.</summary>
    public async ValueTask DisposeAsync()
    {
        await _pacing;
        foreach (var session in _sessions)
        {
            session.Abort();
        }

        await Task.WhenAll(_clients.Select(client => client.DisposeAsync().AsTask()));
    }

    private async Task ConnectAsync(BerthClient client, CancellationToken cancellationToken)
    {
        try
        {
            await client.ConnectAsync(cancellationToken);
        }
        catch (Exception e) when (e is SocketException or TimeoutException)
        {
            throw new IOException($"cannot connect to {_settings.Target}: {e.Message}", e);
        }
    }
}
