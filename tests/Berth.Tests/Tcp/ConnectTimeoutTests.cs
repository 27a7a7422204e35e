using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Berth.Connections;
using BerthClient = Berth.Connections.BerthClient;

namespace Berth.Tests.Tcp;

public sealed class ConnectTimeoutTests
{
    private const int Backlog = 1;

    /// <summary>
    /// A listener that never accepts, with its accept queue full: Linux then drops every new SYN (before any SYN cookie),
    /// so the handshake never completes and only <see cref="BerthClientOptions.ConnectTimeout"/> ends the connect. Linux only:
    /// the test reads the queue's length from /proc/net/tcp. Inline connects on Berth's epoll loop, ThreadPool on the
    /// runtime's engine.
    /// </summary>
    [Theory]
    [InlineData(HandlerScheduling.Inline)]
    [InlineData(HandlerScheduling.ThreadPool)]
    public async Task AConnectTheServerNeverCompletesThrowsTimeoutException(HandlerScheduling scheduling)
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(Backlog);
        var endPoint = (IPEndPoint)listener.LocalEndPoint!;

        // Linux counts the queue as full once it holds more than the backlog.
        var fillers = new List<Socket>();
        try
        {
            using var patience = new CancellationTokenSource(Waits.Patience);
            for (var i = 0; i <= Backlog; i++)
            {
                var filler = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                fillers.Add(filler);
                await filler.ConnectAsync(endPoint, patience.Token);
            }

            // The client sees its handshake done before the listener has queued it; wait for the kernel's own count.
            await Waits.Until(() => AcceptQueueLength(endPoint.Port) > Backlog);

            var options = new BerthClientOptions { Port = endPoint.Port, ConnectTimeout = TimeSpan.FromMilliseconds(300), HandlerScheduling = scheduling };
            await using var client = new BerthClient(options, new RecordingHandler());

            // The caller's token only keeps a broken timeout from hanging the test; it would surface as a cancellation, not a timeout.
            var connecting = client.ConnectAsync(patience.Token);
            var error = await Assert.ThrowsAsync<TimeoutException>(() => connecting);
            Assert.Contains($"127.0.0.1:{endPoint.Port}", error.Message);
            Assert.Null(client.Connection);
        }
        finally
        {
            foreach (var filler in fillers)
            {
                filler.Dispose();
            }
        }
    }

    /// <summary>Connections waiting in the accept queue of the IPv4 loopback listener on <paramref name="port"/>.</summary>
    private static int AcceptQueueLength(int port)
    {
        var local = string.Create(CultureInfo.InvariantCulture, $"0100007F:{port:X4}");
        foreach (var line in File.ReadLines("/proc/net/tcp").Skip(1))
        {
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);

            // Fields: slot, local, remote, state (0A is LISTEN), tx_queue:rx_queue; a listener's rx_queue is its accept queue.
            if (fields[1] == local && fields[3] == "0A")
            {
                return int.Parse(fields[4].Split(':')[1], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"No listener on 127.0.0.1:{port} in /proc/net/tcp.");
    }
}
