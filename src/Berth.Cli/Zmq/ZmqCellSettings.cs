namespace Berth.Cli.Zmq;

/// <summary>What <c>berth zmq cell</c> was asked for: one Berth.Zmq throughput cell of <c>berth zmq bench</c>.</summary>
internal sealed record ZmqCellSettings(ThroughputPattern Pattern, SendStrategy Strategy, int Size, int Count, int Rounds);
