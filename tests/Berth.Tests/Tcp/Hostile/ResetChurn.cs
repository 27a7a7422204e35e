using System.Net;
using System.Net.Sockets;

namespace Berth.Tests.Tcp.Hostile;

/// <summary>Connect-and-reset churn: connections that open and at once close with linger 0, so the peer sees a reset.</summary>
internal static class ResetChurn
{
    /// <summary>Makes <paramref name="connections"/> connections, <paramref name="parallel"/> at a time; returns how many connected.</summary>
    public static async Task<int> RunAsync(IPEndPoint server, int connections, int parallel)
    {
        var left = connections;
        var connected = 0;
        await Task.WhenAll(Enumerable.Range(0, parallel).Select(_ => Task.Run(async () =>
        {
            while (Interlocked.Decrement(ref left) >= 0)
            {
                using var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
                socket.LingerState = new LingerOption(true, 0);
                await socket.ConnectAsync(server);
                Interlocked.Increment(ref connected);
            }
        })));
        return connected;
    }
}
