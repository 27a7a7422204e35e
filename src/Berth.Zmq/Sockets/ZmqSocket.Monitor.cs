using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed partial class ZmqSocket
{
    private static long _monitorCount;

    /// <summary>Starts reporting this socket's lifecycle events (connects, accepts, handshakes, disconnects...).</summary>
    /// <param name="events">The events to report.</param>
    /// <returns>The monitor; dispose it when done.</returns>
    public ZmqMonitor Monitor(ZmqMonitorEvents events = ZmqMonitorEvents.All)
    {
        var endpoint = $"inproc://berth-monitor-{Interlocked.Increment(ref _monitorCount)}";
        Enter();
        try
        {
            if (LibZmq.SocketMonitor(_socket, endpoint, (int)events) != 0)
            {
                throw Failure(LastError(), "zmq_socket_monitor");
            }
        }
        finally
        {
            Exit();
        }

        var pair = _context.CreateSocket(ZmqSocketType.Pair);
        try
        {
            pair.Connect(endpoint);
        }
        catch
        {
            pair.Dispose();
            throw;
        }

        return new ZmqMonitor(pair);
    }
}
