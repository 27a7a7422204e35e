using System.Collections.Concurrent;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using Berth.Buffers;
using Berth.Connections.Transport;
using Berth.Proxy;
using Berth.Unix;
using Microsoft.Extensions.Logging;

namespace Berth.Connections;

/// <summary>
/// A framed TCP server: listens, keeps several accepts outstanding, and runs a <see cref="Connection"/> per accepted
/// socket with the <see cref="ConnectionHandler"/> it was given. <see cref="StopAsync"/> stops accepting, closes idle
/// connections first and each active one at its next frame boundary, lets every connection flush its queue within
/// <see cref="BerthServerOptions.ShutdownTimeout"/>, and returns every pooled buffer.
/// </summary>
public sealed class BerthServer : IAsyncDisposable
{
    /// <summary>How often a stop looks again for active connections that reached a frame boundary.</summary>
    private static readonly TimeSpan FrameBoundaryPollInterval = TimeSpan.FromMilliseconds(10);

    private readonly BerthServerOptions _options;
    private readonly ConnectionHandler _handler;
    private readonly ILogger _logger;
    private readonly ILogger _connectionLogger;
    private readonly Action<Connection, DisconnectInfo> _onClosed;
    private readonly ConcurrentDictionary<long, Connection> _connections = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly SemaphoreSlim? _slots;
    private readonly IPreFramingStage _preFraming;
    private Socket? _listener;
    private Task _accepting = Task.CompletedTask;
    private TimeoutSweeper? _sweeper;
    private Task? _stopped;
    private int _open;

    /// <summary>Creates a server; nothing listens until <see cref="Start"/>.</summary>
    public BerthServer(BerthServerOptions options, ConnectionHandler handler)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(handler);
        options.ValidateServer();
        _options = options;
        _handler = handler;
        _logger = options.LoggerFactory.CreateLogger<BerthServer>();
        // Made once and shared: per connection they would be two more objects on every idle connection.
        _connectionLogger = options.LoggerFactory.CreateLogger<Connection>();
        _onClosed = Closed;
        _preFraming = options.ProxyProtocol is { } proxy ? new ProxyHeaderStage(proxy) : PassThroughStage.Instance;
        if (options.ConnectionLimitPolicy == ConnectionLimitPolicy.PauseAccepting)
        {
            _slots = new SemaphoreSlim(options.MaxConnections, options.MaxConnections);
        }
    }

    /// <summary>The address the server listens on, with the port the system picked when it was 0.</summary>
    /// <exception cref="InvalidOperationException">The server has not started, or listens on a Unix domain socket.</exception>
    public IPEndPoint EndPoint => _listener?.LocalEndPoint as IPEndPoint
        ?? throw new InvalidOperationException(_listener is null ? "The server has not started." : "The server listens on a Unix domain socket.");

    /// <summary>Where the server listens: an IP endpoint, or the Unix domain socket's path; null before it started.</summary>
    internal EndPoint? ListeningEndPoint => _listener?.LocalEndPoint;

    /// <summary>Open connections.</summary>
    public int ConnectionCount => _connections.Count;

    /// <summary>The open connections at the moment of the call.</summary>
    public IReadOnlyCollection<Connection> Connections => [.. _connections.Values];

    /// <summary>The pool every connection's buffers come from.</summary>
    public BufferPool BufferPool => _options.BufferPool;

    /// <summary>Binds, listens and starts accepting.</summary>
    /// <exception cref="SocketException">The address is in use or cannot be bound.</exception>
    public void Start()
    {
        if (_listener is not null)
        {
            throw new InvalidOperationException("The server has already started.");
        }

        var path = _options.UnixSocketPath;
        if (path is not null)
        {
            UnixSocketFile.Reclaim(path);
        }

        var listener = path is null
            ? new Socket(_options.EndPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp)
            : new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            if (path is null)
            {
                listener.Bind(_options.EndPoint);
            }
            else
            {
                UnixSocketFile.Bind(listener, path, _options.UnixSocketMode);
            }

            listener.Listen(_options.Backlog);
        }
        catch
        {
            listener.Dispose();
            throw;
        }

        _listener = listener;
        _sweeper = TimeoutSweeper.For(_options, _connections);

        var accepts = new Task[_options.ConcurrentAccepts];
        for (var i = 0; i < accepts.Length; i++)
        {
            accepts[i] = Task.Run(AcceptLoopAsync);
        }

        _accepting = Task.WhenAll(accepts);
        ConnectionLog.Listening(_logger, listener.LocalEndPoint);
    }

    /// <summary>
    /// Stops accepting, closes every connection once it is between frames (no frame partly received, nothing queued:
    /// idle ones at once) after it flushed its queue, or hard once the shutdown timeout or
    /// <paramref name="cancellationToken"/> ends the wait, and completes when every connection is closed.
    /// </summary>
    public Task StopAsync(CancellationToken cancellationToken = default)
    {
        lock (_connections)
        {
            _stopped ??= StopOnceAsync(cancellationToken);
            return _stopped;
        }
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync() => await StopAsync().ConfigureAwait(false);

    private async Task StopOnceAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener?.Dispose();
        if (_listener is not null && _options.UnixSocketPath is { } path)
        {
            UnixSocketFile.Remove(path);
        }

        await _accepting.ConfigureAwait(false);
        _sweeper?.Dispose();

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(_options.ShutdownTimeout);
        var remaining = 0;
        try
        {
            // Idle connections close first; an active one closes at its next frame boundary, so the frame it is
            // receiving is delivered and its reply flushed before the close, all within the shutdown timeout.
            var active = CloseConnectionsBetweenFrames();
            if (active > 0)
            {
                ConnectionLog.WaitingForFrameBoundaries(_logger, active);
            }

            while (active > 0)
            {
                await Task.Delay(FrameBoundaryPollInterval, deadline.Token).ConfigureAwait(false);
                active = CloseConnectionsBetweenFrames();
            }

            if (Volatile.Read(ref _open) == 0)
            {
                _drained.TrySetResult();
            }

            await _drained.Task.WaitAsync(deadline.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            foreach (var (_, connection) in _connections)
            {
                remaining++;
                connection.Lifetime.Close(DisconnectReason.ServerStopping, null, flush: false);
                connection.Lifetime.AbortClosing();
            }

            await _drained.Task.ConfigureAwait(false);
        }

        ConnectionLog.Stopped(_logger, remaining);
    }

    /// <summary>Closes, flushing, every connection that is between frames; returns how many are still mid-frame.</summary>
    private int CloseConnectionsBetweenFrames()
    {
        var active = 0;
        foreach (var (_, connection) in _connections)
        {
            var lifetime = connection.Lifetime;
            if (lifetime.IsClosing)
            {
                continue;
            }

            if (lifetime.IsBetweenFrames)
            {
                lifetime.Close(DisconnectReason.ServerStopping, null, flush: true);
            }
            else
            {
                active++;
            }
        }

        return active;
    }

    private async Task AcceptLoopAsync()
    {
        var stopping = _stopping.Token;
        while (!stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                if (_slots is not null)
                {
                    await _slots.WaitAsync(stopping).ConfigureAwait(false);
                }

                socket = await _listener!.AcceptAsync(stopping).ConfigureAwait(false);
            }
            catch (Exception) when (stopping.IsCancellationRequested)
            {
                return;
            }
            catch (SocketException e)
            {
                // Out of descriptors or a connection reset before it was accepted: keep serving the others.
                _slots?.Release();
                ConnectionLog.AcceptFailed(_logger, e);
                await Task.Delay(10, CancellationToken.None).ConfigureAwait(false);
                continue;
            }

            Open(socket);
        }
    }

    private void Open(Socket socket)
    {
        Interlocked.Increment(ref _open);
        var id = Connection.NextId();
        var overLimit = _slots is null && Volatile.Read(ref _open) > _options.MaxConnections;
        try
        {
            _options.ApplyTo(socket);
        }
        catch (SocketException e)
        {
            Create(id, new SocketTransport(socket)).Lifetime.Refuse(DisconnectReason.SocketError, e);
            return;
        }

        if (overLimit)
        {
            socket.LingerState = new LingerOption(true, 0);
            ConnectionLog.ClosedByPolicy(_logger, id, DisconnectReason.ConnectionLimit);
            Create(id, new SocketTransport(socket)).Lifetime.Refuse(DisconnectReason.ConnectionLimit, null);
            return;
        }

        var remote = _preFraming.RunAsync(socket, socket.RemoteEndPoint, _stopping.Token);
        if (remote.IsCompletedSuccessfully)
        {
            Admit(id, socket, remote.Result);
        }
        else
        {
            _ = AdmitAfterPreFramingAsync(id, socket, remote);
        }
    }

    /// <summary>The pre-framing stage has to wait for the peer: admits the connection once it read what it needs.</summary>
    private async Task AdmitAfterPreFramingAsync(long id, Socket socket, ValueTask<EndPoint?> remote)
    {
        EndPoint? remoteEndPoint;
        try
        {
            remoteEndPoint = await remote.ConfigureAwait(false);
        }
        catch (Exception e)
        {
            var reason = e switch
            {
                ProxyHeaderRefusedException refused => refused.Reason,
                OperationCanceledException => DisconnectReason.ServerStopping,
                _ => DisconnectReason.SocketError,
            };
            Create(id, new SocketTransport(socket)).Lifetime.Refuse(reason, e);
            return;
        }

        Admit(id, socket, remoteEndPoint);
    }

    private void Admit(long id, Socket socket, EndPoint? remoteEndPoint)
    {
        if (_options.Tls is { } tls)
        {
            _ = HandshakeAsync(id, socket, remoteEndPoint, tls);
            return;
        }

        var transport = PlainTransport.For(socket, _options, activeOpen: false);
        transport.RemoteEndPoint = remoteEndPoint;
        Run(Create(id, transport));
    }

    private async Task HandshakeAsync(long id, Socket socket, EndPoint? remoteEndPoint, SslServerAuthenticationOptions tls)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_stopping.Token);
        timeout.CancelAfter(_options.TlsHandshakeTimeout);
        var (transport, error) = await TlsTransport.AcceptAsync(socket, tls, timeout.Token).ConfigureAwait(false);
        transport.RemoteEndPoint = remoteEndPoint;
        if (error is not null)
        {
            Create(id, transport).Lifetime.Refuse(DisconnectReason.TlsFailed, error);
            return;
        }

        Run(Create(id, transport));
    }

    private Connection Create(long id, ConnectionTransport transport) =>
        new(id, transport, _options, _handler, _connectionLogger, _onClosed);

    private void Run(Connection connection)
    {
        _connections[connection.Id] = connection;
        connection.Lifetime.Start();
        if (_stopping.IsCancellationRequested)
        {
            connection.Lifetime.Close(DisconnectReason.ServerStopping, null, flush: true);
        }
    }

    private void Closed(Connection connection, DisconnectInfo info)
    {
        _connections.TryRemove(connection.Id, out _);
        _slots?.Release();
        if (Interlocked.Decrement(ref _open) == 0 && _stopping.IsCancellationRequested)
        {
            _drained.TrySetResult();
        }
    }
}
