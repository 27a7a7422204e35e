using System.Collections.Concurrent;
using System.Security.Authentication;
using System.Net.Sockets;
using Berth.Buffers;
using Berth.Connections.Transport;
using Microsoft.Extensions.Logging;

namespace Berth.Connections;

/// <summary>
/// The client side: connects by host name or address within a timeout and runs one <see cref="Connection"/> with the
/// <see cref="ConnectionHandler"/> it was given. With <see cref="BerthClientOptions.Reconnect"/>, a lost connection is
/// replaced after a random delay within a window that doubles per failed attempt, until the client is disposed.
/// </summary>
public sealed class BerthClient : IAsyncDisposable
{
    private readonly BerthClientOptions _options;
    private readonly ConnectionHandler _handler;
    private readonly ILogger _logger;
    private readonly ConcurrentDictionary<long, Connection> _connections = new();
    private readonly CancellationTokenSource _disposing = new();
    private Task _reconnecting = Task.CompletedTask;
    private volatile Connection? _connection;

    /// <summary>Creates a client; nothing connects until <see cref="ConnectAsync"/>.</summary>
    public BerthClient(BerthClientOptions options, ConnectionHandler handler)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(handler);
        options.ValidateClient();
        _options = options;
        _handler = handler;
        _logger = options.LoggerFactory.CreateLogger<BerthClient>();
        options.Timeouts.Join(options);
    }

    /// <summary>The current connection, or null before the first connect and while reconnecting.</summary>
    public Connection? Connection => _connection;

    /// <summary>The pool the connection's buffers come from.</summary>
    public BufferPool BufferPool => _options.BufferPool;

    /// <summary>Connects once.</summary>
    /// <exception cref="TimeoutException">The connect took longer than <see cref="BerthClientOptions.ConnectTimeout"/>.</exception>
    /// <exception cref="SocketException">The host could not be resolved or refused the connection.</exception>
    /// <exception cref="AuthenticationException">The TLS handshake failed.</exception>
    public async Task<Connection> ConnectAsync(CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(_disposing.IsCancellationRequested, this);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _disposing.Token);
        timeout.CancelAfter(_options.ConnectTimeout);
        var path = _options.UnixSocketPath;
        var socket = path is null
            ? new Socket(SocketType.Stream, ProtocolType.Tcp)
            : new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        ConnectionTransport transport;
        try
        {
            if (path is null)
            {
                await socket.ConnectAsync(_options.Host, _options.Port, timeout.Token).ConfigureAwait(false);
            }
            else
            {
                await socket.ConnectAsync(new UnixDomainSocketEndPoint(path), timeout.Token).ConfigureAwait(false);
            }

            _options.ApplyTo(socket);
            transport = await SecureAsync(socket, timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested && !_disposing.IsCancellationRequested)
        {
            socket.Dispose();
            throw new TimeoutException($"Connecting to {path ?? $"{_options.Host}:{_options.Port}"} took longer than {_options.ConnectTimeout}.");
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        var connection = new Connection(
            Connection.NextId(), transport, _options, _handler, _options.LoggerFactory.CreateLogger<Connection>(), Closed);
        _connections[connection.Id] = connection;
        _options.Timeouts.Track(connection);
        _connection = connection;
        connection.Lifetime.Start();
        if (_disposing.IsCancellationRequested)
        {
            connection.Lifetime.Close(DisconnectReason.ServerStopping, null, flush: true);
        }

        return connection;
    }

    /// <summary>Stops reconnecting, flushes and closes the connection, and waits until it released its buffers.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_disposing.IsCancellationRequested)
        {
            return;
        }

        await _disposing.CancelAsync().ConfigureAwait(false);
        _options.Timeouts.Leave();
        await _reconnecting.ConfigureAwait(false);
        foreach (var (_, connection) in _connections)
        {
            connection.Lifetime.Close(DisconnectReason.ClosedByApplication, null, flush: true);
            try
            {
                await connection.Closed.WaitAsync(_options.LingerTimeout).ConfigureAwait(false);
            }
            catch (TimeoutException)
            {
                connection.Lifetime.AbortClosing();
                await connection.Closed.ConfigureAwait(false);
            }
        }
    }

    private async Task<ConnectionTransport> SecureAsync(Socket socket, CancellationToken cancellationToken) =>
        _options.Tls is { } tls
            ? await TlsTransport.ConnectAsync(socket, tls, cancellationToken).ConfigureAwait(false)
            : PlainTransport.For(socket, _options, activeOpen: true);

    private void Closed(Connection connection, DisconnectInfo info)
    {
        _connections.TryRemove(connection.Id, out _);
        _options.Timeouts.Forget(connection);
        Interlocked.CompareExchange(ref _connection, null, connection);
        if (_options.Reconnect && info.Reason != DisconnectReason.ClosedByApplication && !_disposing.IsCancellationRequested)
        {
            _reconnecting = Task.Run(ReconnectAsync);
        }
    }

    private async Task ReconnectAsync()
    {
        var window = ReconnectWindow.First(_options, _options.Timeouts.Clients);
        for (var attempt = 1; !_disposing.IsCancellationRequested; attempt++)
        {
            var delay = ReconnectWindow.Draw(window);
            _options.ReconnectScheduled?.Invoke(delay, window);
            try
            {
                await Task.Delay(delay, _disposing.Token).ConfigureAwait(false);
                await ConnectAsync(_disposing.Token).ConfigureAwait(false);
                return;
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException && _disposing.IsCancellationRequested)
            {
                // Disposed while waiting or just before connecting: no attempt is left to make.
                return;
            }
            catch (Exception e) when (e is SocketException or TimeoutException or AuthenticationException or IOException)
            {
                window = ReconnectWindow.Next(_options, window);
                ConnectionLog.ReconnectFailed(_logger, _options.Host, _options.Port, attempt, window, e);
            }
        }
    }
}
