using System.Net;
using System.Net.Sockets;

namespace Berth.Cli.Soak;

/// <summary>Connect-and-reset peers: each connects and closes at once with linger 0, so the server sees a reset.</summary>
internal static class ResetChurn
{
    /// <summary>
    /// Runs <paramref name="count"/> resets over <paramref name="parallel"/> threads of their own (blocking connects
    /// must not take the server's pool threads); returns those done.
    /// </summary>
    public static long Run(IPEndPoint server, long count, int parallel, CancellationToken stop)
    {
        long started = 0;
        long done = 0;
        var threads = new Thread[parallel];
        for (var i = 0; i < parallel; i++)
        {
            threads[i] = new Thread(() =>
            {
                while (!stop.IsCancellationRequested && Interlocked.Increment(ref started) <= count)
                {
                    if (ConnectAndReset(server))
                    {
                        Interlocked.Increment(ref done);
                    }
                }
            });
            threads[i].Start();
        }

        foreach (var thread in threads)
        {
            thread.Join();
        }

        return done;
    }

    public static bool ConnectAndReset(IPEndPoint server)
    {
        using var socket = new Socket(server.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            socket.Connect(server);
            socket.LingerState = new LingerOption(true, 0);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
