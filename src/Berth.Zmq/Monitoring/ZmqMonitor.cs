using System.Buffers.Binary;
using System.Text;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>
/// Receives lifecycle events of a monitored socket (<c>zmq_socket_monitor</c>) through an inproc PAIR socket.
/// Create it with <see cref="ZmqSocket.Monitor"/>; use it from one thread.
/// </summary>
public sealed class ZmqMonitor : IDisposable
{
    private const int EventFrameLength = 6;

    private readonly ZmqSocket _pair;
    private readonly byte[] _frame = new byte[EventFrameLength];
    private readonly byte[] _endpoint = new byte[1024];

    internal ZmqMonitor(ZmqSocket pair) => _pair = pair;

    /// <summary>Waits up to <paramref name="timeout"/> for the next event.</summary>
    /// <param name="timeout">How long to wait.</param>
    /// <param name="monitorEvent">The event.</param>
    /// <returns>False on timeout.</returns>
    public bool TryReceive(TimeSpan timeout, out ZmqMonitorEvent monitorEvent)
    {
        monitorEvent = default;
        _pair.ReceiveTimeout = timeout;
        int size;
        try
        {
            size = _pair.Receive(_frame);
        }
        catch (TimeoutException)
        {
            return false;
        }

        if (size != EventFrameLength || !_pair.ReceiveMore)
        {
            throw new ZmqException(ZmqErrors.FiniteStateMachine, "monitor sent a malformed event frame");
        }

        var endpointLength = _pair.Receive(_endpoint);
        monitorEvent = new ZmqMonitorEvent(
            (ZmqMonitorEvents)BinaryPrimitives.ReadUInt16LittleEndian(_frame),
            BinaryPrimitives.ReadInt32LittleEndian(_frame.AsSpan(2)),
            Encoding.UTF8.GetString(_endpoint, 0, endpointLength));
        return true;
    }

    /// <summary>Closes the monitor's socket.</summary>
    public void Dispose() => _pair.Dispose();
}
