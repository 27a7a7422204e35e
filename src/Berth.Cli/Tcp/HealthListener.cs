using System.Net;
using System.Net.Sockets;

namespace Berth.Cli.Tcp;

/// <summary>
/// <c>berth serve --health-port</c>: the port a load balancer's layer-4 health check connects to (HAProxy's plain
/// <c>check</c>, a cloud balancer's TCP check, a Kubernetes <c>tcpSocket</c> probe). While the server takes new
/// connections each check is accepted and closed at once; <see cref="FailAsync"/> closes the listener, so every later
/// check is refused and the balancer marks the server down while its established connections are still served.
/// </summary>
/// <remarks>
/// It reads nothing, so a check that sends a PROXY header first (<c>check-send-proxy</c>) passes the same way: the
/// answer is whether the port accepts, never what was said on it.
/// </remarks>
internal sealed class HealthListener : IAsyncDisposable
{
    private readonly Socket _listener;
    private readonly Task _accepting;

    public HealthListener(IPEndPoint endPoint)
    {
        _listener = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            _listener.Bind(endPoint);
            _listener.Listen(64);
        }
        catch
        {
            _listener.Dispose();
            throw;
        }

        EndPoint = (IPEndPoint)_listener.LocalEndPoint!;
        _accepting = AcceptAsync();
    }

    /// <summary>Where the checks connect, with the port the system picked when it was 0.</summary>
    public IPEndPoint EndPoint { get; }

    /// <summary>Closes the listener: from now on every check is refused.</summary>
    public async Task FailAsync()
    {
        _listener.Dispose();
        await _accepting.ConfigureAwait(false);
    }

    public async ValueTask DisposeAsync() => await FailAsync().ConfigureAwait(false);

    private async Task AcceptAsync()
    {
        while (true)
        {
            Socket check;
            try
            {
                check = await _listener.AcceptAsync().ConfigureAwait(false);
            }
            catch (ObjectDisposedException)
            {
                return;
            }
            catch (SocketException) when (_listener.SafeHandle.IsClosed)
            {
                return;
            }
            catch (SocketException)
            {
                // A check reset before it was accepted: the next one is answered as usual.
                continue;
            }

            check.Dispose();
        }
    }
}
