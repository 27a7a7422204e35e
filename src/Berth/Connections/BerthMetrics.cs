using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;

namespace Berth.Connections;

/// <summary>
/// The transport's instruments on a meter named <c>Berth</c>, readable by <c>dotnet-counters monitor -n APP --counters Berth</c>
/// and by OpenTelemetry's <c>AddMeter("Berth")</c>. The meter comes from <see cref="ConnectionOptions.MeterFactory"/>
/// when one is set, so a host (or a test) sees only its own connections; otherwise from one process-wide meter.
/// Counters are added once per receive or per batch, not per frame.
/// </summary>
internal sealed class BerthMetrics
{
    public const string MeterName = "Berth";

    private static readonly string[] ReasonNames = Enum.GetNames<DisconnectReason>();

    private static readonly ConditionalWeakTable<IMeterFactory, BerthMetrics> ByFactory = [];

    private BerthMetrics(Meter meter)
    {
        ActiveConnections = meter.CreateUpDownCounter<long>("berth.connections.active", "{connection}", "Open connections.");
        OpenedConnections = meter.CreateCounter<long>("berth.connections.opened", "{connection}", "Connections accepted or connected.");
        Disconnects = meter.CreateCounter<long>("berth.disconnects", "{connection}", "Connections ended, by reason.");
        FramesReceived = meter.CreateCounter<long>("berth.frames.received", "{frame}", "Frames received.");
        FramesSent = meter.CreateCounter<long>("berth.frames.sent", "{frame}", "Frames written to sockets.");
        BytesReceived = meter.CreateCounter<long>("berth.bytes.received", "By", "Bytes received, headers included.");
        BytesSent = meter.CreateCounter<long>("berth.bytes.sent", "By", "Bytes written to sockets, headers included.");
        SendQueueBytes = meter.CreateUpDownCounter<long>("berth.send_queue.bytes", "By", "Bytes accepted for sending and not yet written.");
        LateReplies = meter.CreateCounter<long>("berth.requests.late_replies", "{reply}", "Replies discarded because their request had timed out or was cancelled.");
    }

    /// <summary>The instruments of connections that name no meter factory.</summary>
    public static BerthMetrics Default { get; } = new(new Meter(MeterName));

    public UpDownCounter<long> ActiveConnections { get; }

    public Counter<long> OpenedConnections { get; }

    public Counter<long> Disconnects { get; }

    public Counter<long> FramesReceived { get; }

    public Counter<long> FramesSent { get; }

    public Counter<long> BytesReceived { get; }

    public Counter<long> BytesSent { get; }

    public UpDownCounter<long> SendQueueBytes { get; }

    public Counter<long> LateReplies { get; }

    /// <summary>
    /// The instruments on <paramref name="factory"/>'s <c>Berth</c> meter, created once per factory and shared by all
    /// its connections; <see cref="Default"/> when <paramref name="factory"/> is null.
    /// </summary>
    public static BerthMetrics For(IMeterFactory? factory) =>
        factory is null ? Default : ByFactory.GetValue(factory, static f => new BerthMetrics(f.Create(new MeterOptions(MeterName))));

    public void Disconnected(DisconnectReason reason) =>
        Disconnects.Add(1, new KeyValuePair<string, object?>("reason", ReasonNames[(int)reason]));
}
