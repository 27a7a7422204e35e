using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>What <c>berth zmq echo</c> was asked for.</summary>
internal sealed record ZmqEchoSettings(ZmqSocketType Type, string Bind);
