using System.Net;
using System.Net.Sockets;

namespace Berth.Cli.Tcp;

/// <summary>Turns <c>--host</c> and <c>--port</c> into an address to bind, preferring IPv4 for a name.</summary>
internal static class EndPoints
{
    public static IPEndPoint Resolve(string host, int port)
    {
        if (IPAddress.TryParse(host, out var address))
        {
            return new IPEndPoint(address, port);
        }

        try
        {
            var addresses = Dns.GetHostAddresses(host);
            var chosen = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.First();
            return new IPEndPoint(chosen, port);
        }
        catch (Exception e) when (e is SocketException or InvalidOperationException)
        {
            throw new UsageException($"cannot resolve host '{host}'");
        }
    }
}
