namespace Berth.Cli.Zmq;

/// <summary>The socket pairs whose one-way throughput <c>berth zmq bench</c> measures.</summary>
internal enum ThroughputPattern
{
    /// <summary>A PUSH sender to a PULL receiver: one frame per message.</summary>
    PushPull,

    /// <summary>A DEALER sender to a ROUTER receiver, as a broker's front end: the routing id and the payload per message.</summary>
    RouterDealer,
}

internal static class ThroughputPatterns
{
    public static string Title(this ThroughputPattern pattern) => pattern == ThroughputPattern.PushPull ? "PUSH/PULL" : "ROUTER/DEALER";

    /// <summary>The program name in bench/native/zmq and bench/peers/NetZmqPerf.</summary>
    public static string Program(this ThroughputPattern pattern) => pattern == ThroughputPattern.PushPull ? "push_pull_thr" : "router_dealer_thr";

    /// <summary>Frames the receiver takes per message.</summary>
    public static int FramesPerMessage(this ThroughputPattern pattern) => pattern == ThroughputPattern.PushPull ? 1 : 2;
}
