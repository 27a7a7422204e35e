using System.Text;
using Berth.Zmq;

namespace ZmqBroker;

/// <summary>
/// A worker: a REP socket connected to the broker's DEALER, answering each request with its id and the worker's name.
/// REP strips the envelope on receive and puts it back on send, so the worker sees only the request.
/// </summary>
internal static class WorkerRole
{
    // A hang guard, not a measurement.
    private static readonly TimeSpan HandshakePatience = TimeSpan.FromSeconds(60);

    public static int Run(string backend, string name, RunOptions options)
    {
        using var context = new ZmqContext();
        using var socket = context.CreateSocket(ZmqSocketType.Rep);
        socket.Linger = TimeSpan.Zero;
        using (var monitor = socket.Monitor(ZmqMonitorEvents.HandshakeSucceeded))
        {
            socket.Connect(backend);
            if (!monitor.TryReceive(HandshakePatience, out _))
            {
                Console.Error.WriteLine($"no handshake with the broker at {backend}");
                return 1;
            }
        }

        // Ready once connected, so that the broker shares requests among all workers from the first one on.
        Console.WriteLine(Protocol.Ready);
        var stopped = StopSignal.ShutDownOnEndOfInput(context);

        var buffer = new byte[256];
        var reply = new byte[256];
        try
        {
            for (var taken = 1; ; taken++)
            {
                var size = socket.Receive(buffer);
                var id = Encoding.UTF8.GetString(buffer, 0, size);
                Console.WriteLine($"{Protocol.Took} {id}");
                if (taken == options.StallAt)
                {
                    // Keeps the request unanswered until killed, or until the run ends if nobody kills it.
                    Console.WriteLine($"{Protocol.Stalled} {id}");
                    stopped.Wait();
                    return 0;
                }

                var length = Encoding.UTF8.GetBytes($"{id} {name}", reply);
                socket.Send(reply.AsSpan(0, length));
            }
        }
        catch (ZmqException e) when (e.IsContextTerminated)
        {
            return 0;
        }
    }
}
