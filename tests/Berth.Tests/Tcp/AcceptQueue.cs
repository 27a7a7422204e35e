using System.Globalization;
using System.Net;

namespace Berth.Tests.Tcp;

/// <summary>
/// What the kernel holds for a listening IPv4 socket: the connections it completed that the server has not accepted
/// yet (for a listener, the rx_queue column of <c>/proc/net/tcp</c> is its accept queue's length).
/// </summary>
internal static class AcceptQueue
{
    private const string Listening = "0A";

    public static int Length(IPEndPoint listener)
    {
        var address = BitConverter.ToUInt32(listener.Address.MapToIPv4().GetAddressBytes(), 0);
        var local = string.Create(CultureInfo.InvariantCulture, $"{address:X8}:{listener.Port:X4}");
        foreach (var line in File.ReadLines("/proc/net/tcp").Skip(1))
        {
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields[1] == local && fields[3] == Listening)
            {
                return int.Parse(fields[4].AsSpan(9), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"nothing listens on {listener}");
    }
}
