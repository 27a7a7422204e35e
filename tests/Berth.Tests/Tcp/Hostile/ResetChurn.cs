using System.Net;
using System.Net.Sockets;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>Connect-and-reset churn: connections that open and at once close with linger 0, so the peer sees a reset.</summary>
internal static class ResetChurn
{
    /// <summary>Makes <paramref name="connections"/> connections, <paramref name="parallel"/> at a time; returns how many connected.</summary>
    public static Task<int> RunAsync(IPEndPoint server, int connections, int parallel)
    {
        var left = connections;
        return RunWhileAsync(server, parallel, () => Interlocked.Decrement(ref left) >= 0);
    }

    /// <summary>Makes connections, <paramref name="parallel"/> at a time, while <paramref name="another"/> says so; returns how many connected.</summary>
    public static async Task<int> RunWhileAsync(IPEndPoint server, int parallel, Func<bool> another, Action? connected = null)
    {
        var count = 0;
        await Task.WhenAll(Enumerable.Range(0, parallel).Select(_ => Task.Run(async () =>
        {
            while (another())
            {
                using var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
                socket.LingerState = new LingerOption(true, 0);
                await socket.ConnectAsync(server);
                Interlocked.Increment(ref count);
                connected?.Invoke();
            }
        })));
        return count;
    }
}
