using System.Diagnostics.Metrics;

namespace Berth.Tcp;

/// <summary>
/// The transport's instruments on the meter named <c>Berth</c>, readable by <c>dotnet-counters monitor -n APP --counters Berth</c>
/// and by OpenTelemetry's <c>AddMeter("Berth")</c>. Counters are added once per receive or per batch, not per frame.
/// </summary>
public static class TcpMetrics
{
    /// <summary>The meter name.</summary>
    public const string MeterName = "Berth";

    private static readonly Meter Meter = new(MeterName);

    internal static readonly UpDownCounter<long> ActiveConnections =
        Meter.CreateUpDownCounter<long>("berth.tcp.connections.active", "{connection}", "Open connections.");

    internal static readonly Counter<long> OpenedConnections =
        Meter.CreateCounter<long>("berth.tcp.connections.opened", "{connection}", "Connections accepted or connected.");

    internal static readonly Counter<long> Disconnects =
        Meter.CreateCounter<long>("berth.tcp.disconnects", "{connection}", "Connections ended, by reason.");

    internal static readonly Counter<long> FramesReceived =
        Meter.CreateCounter<long>("berth.tcp.frames.received", "{frame}", "Frames received.");

    internal static readonly Counter<long> FramesSent =
        Meter.CreateCounter<long>("berth.tcp.frames.sent", "{frame}", "Frames written to sockets.");

    internal static readonly Counter<long> BytesReceived =
        Meter.CreateCounter<long>("berth.tcp.bytes.received", "By", "Bytes received, headers included.");

    internal static readonly Counter<long> BytesSent =
        Meter.CreateCounter<long>("berth.tcp.bytes.sent", "By", "Bytes written to sockets, headers included.");

    internal static readonly UpDownCounter<long> SendQueueBytes =
        Meter.CreateUpDownCounter<long>("berth.tcp.send_queue.bytes", "By", "Bytes accepted for sending and not yet written.");

    internal static void Disconnected(DisconnectReason reason) =>
        Disconnects.Add(1, new KeyValuePair<string, object?>("reason", ReasonNames[(int)reason]));

    private static readonly string[] ReasonNames = Enum.GetNames<DisconnectReason>();
}
