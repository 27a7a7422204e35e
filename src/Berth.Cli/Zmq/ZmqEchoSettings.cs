using Berth.Zmq;

namespace Berth.Cli.Zmq;

/// <summary>What <c>berth zmq echo</c> was asked for; a <see cref="MaxMessageSize"/> of -1 means no limit.</summary>
internal sealed record ZmqEchoSettings(ZmqSocketType Type, string Bind, int MaxMessageSize);
